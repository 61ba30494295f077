"""Discord-shaped API errors raised by route handlers and turned into JSON responses."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An HTTP error with Discord's JSON body: {"code": ..., "message": ..., "errors": ...}."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            out["errors"] = self.errors
        return out


def unknown_interaction() -> ApiError:
    return ApiError(404, 10062, "Unknown interaction")


def already_acknowledged() -> ApiError:
    return ApiError(400, 40060, "Interaction has already been acknowledged.")


def unknown_webhook() -> ApiError:
    return ApiError(404, 10015, "Unknown Webhook")


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def unknown_user() -> ApiError:
    return ApiError(404, 10013, "Unknown User")


def unknown_member() -> ApiError:
    return ApiError(404, 10007, "Unknown Member")


def unknown_guild() -> ApiError:
    return ApiError(404, 10004, "Unknown Guild")


def unknown_role() -> ApiError:
    return ApiError(404, 10011, "Unknown Role")


def cannot_dm() -> ApiError:
    return ApiError(403, 50007, "Cannot send messages to this user")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


def missing_access() -> ApiError:
    return ApiError(403, 50001, "Missing Access")


def empty_message() -> ApiError:
    return ApiError(400, 50006, "Cannot send an empty message")


def cannot_edit_other() -> ApiError:
    return ApiError(403, 50005, "Cannot edit a message authored by another user")


def unauthorized() -> ApiError:
    return ApiError(401, 0, "401: Unauthorized")
