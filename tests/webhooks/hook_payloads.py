"""Hook bodies in each host's real shape (fields as GitHub and GitLab send them; long ones trimmed)."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any


def github_push(clone_url: str, *, ref: str = "refs/heads/main", after: str = "b" * 40) -> dict[str, Any]:
    """A GitHub ``push`` delivery with three commits."""
    return {
        "ref": ref, "before": "a" * 40, "after": after, "created": False, "deleted": False, "forced": False,
        "base_ref": None, "compare": "https://github.com/octo/shop/compare/aaaaaaa...bbbbbbb",
        "commits": [
            {"id": "c1" + "0" * 38, "tree_id": "t" * 40, "distinct": True, "message": "add billing",
             "timestamp": "2026-06-01T10:00:00+02:00", "url": "https://github.com/octo/shop/commit/c1",
             "author": {"name": "Ann", "email": "ann@example.com", "username": "ann"},
             "committer": {"name": "Ann", "email": "ann@example.com", "username": "ann"},
             "added": ["billing/render.py", "old/notes.md"], "removed": [], "modified": ["README.md"]},
            {"id": "c2" + "0" * 38, "tree_id": "t" * 40, "distinct": True, "message": "drop notes",
             "timestamp": "2026-06-01T11:00:00+02:00", "url": "https://github.com/octo/shop/commit/c2",
             "author": {"name": "Ann", "email": "ann@example.com"},
             "committer": {"name": "Ann", "email": "ann@example.com"},
             "added": [], "removed": ["old/notes.md", "src/legacy.py"], "modified": ["src/app.py"]},
            {"id": after, "tree_id": "t" * 40, "distinct": True, "message": "bring legacy back",
             "timestamp": "2026-06-01T12:30:00+02:00", "url": "https://github.com/octo/shop/commit/b",
             "author": {"name": "Ann", "email": "ann@example.com"},
             "committer": {"name": "Ann", "email": "ann@example.com"},
             "added": ["src/legacy.py"], "removed": [], "modified": []},
        ],
        "head_commit": {"id": after, "tree_id": "t" * 40, "distinct": True, "message": "bring legacy back",
                        "timestamp": "2026-06-01T12:30:00+02:00", "added": ["src/legacy.py"], "removed": [],
                        "modified": []},
        "repository": {"id": 1296269, "node_id": "MDEwOlJlcG9zaXRvcnkxMjk2MjY5", "name": "shop",
                       "full_name": "octo/shop", "private": False, "owner": {"login": "octo", "id": 1},
                       "html_url": "https://github.com/octo/shop", "clone_url": clone_url,
                       "git_url": "git://github.com/octo/shop.git", "ssh_url": "git@github.com:octo/shop.git",
                       "default_branch": "main", "master_branch": "main"},
        "pusher": {"name": "ann", "email": "ann@example.com"},
        "sender": {"login": "ann", "id": 2, "type": "User"},
    }  # fmt: skip


def github_pull_request(
    clone_url: str,
    *,
    action: str = "opened",
    number: int = 7,
    base_sha: str = "a" * 40,
    head_sha: str = "b" * 40,
    title: str = "Rename login_user",
    body: str | None = "Renames it everywhere.",
    draft: bool = False,
) -> dict[str, Any]:
    """A GitHub ``pull_request`` delivery."""
    repository = {"id": 1296269, "name": "shop", "full_name": "octo/shop", "clone_url": clone_url,
                  "default_branch": "main", "owner": {"login": "octo"}}  # fmt: skip
    return {
        "action": action, "number": number,
        "pull_request": {
            "url": f"https://api.github.com/repos/octo/shop/pulls/{number}", "id": 1, "number": number,
            "state": "open", "locked": False, "title": title, "user": {"login": "ann"}, "body": body,
            "created_at": "2026-07-01T10:00:00Z", "updated_at": "2026-07-01T10:00:00Z", "draft": draft,
            "head": {"label": "octo:rename", "ref": "rename", "sha": head_sha, "repo": repository},
            "base": {"label": "octo:main", "ref": "main", "sha": base_sha, "repo": repository},
            "merged": False, "commits": 1, "changed_files": 2,
        },
        "repository": repository, "sender": {"login": "ann"},
    }  # fmt: skip


def gitlab_push(http_url: str, *, total: int | None = None) -> dict[str, Any]:
    """A GitLab ``Push Hook`` delivery with two commits."""
    commits = [
        {"id": "d1" + "0" * 38, "message": "billing", "title": "billing", "timestamp": "2026-05-01T09:00:00+00:00",
         "url": "https://gitlab.example/shop/-/commit/d1", "author": {"name": "Bo", "email": "bo@example.com"},
         "added": ["billing/render.py"], "modified": [], "removed": ["docs/old.md"]},
        {"id": "e" * 40, "message": "app", "title": "app", "timestamp": "2026-05-02T09:00:00+00:00",
         "url": "https://gitlab.example/shop/-/commit/e", "author": {"name": "Bo", "email": "bo@example.com"},
         "added": [], "modified": ["src/app.py"], "removed": []},
    ]  # fmt: skip
    return {
        "object_kind": "push", "event_name": "push", "before": "f" * 40, "after": "e" * 40,
        "ref": "refs/heads/main", "ref_protected": True, "checkout_sha": "e" * 40, "user_id": 4,
        "user_name": "Bo", "user_username": "bo", "project_id": 15,
        "project": {"id": 15, "name": "shop", "web_url": "https://gitlab.example/group/shop",
                    "git_ssh_url": "git@gitlab.example:group/shop.git", "git_http_url": http_url,
                    "namespace": "group", "path_with_namespace": "group/shop", "default_branch": "main"},
        "commits": commits, "total_commits_count": len(commits) if total is None else total,
        "repository": {"name": "shop", "url": "git@gitlab.example:group/shop.git", "homepage": "https://gitlab.example/group/shop"},
    }  # fmt: skip


def gitlab_merge_request(
    http_url: str,
    *,
    action: str = "open",
    iid: int = 3,
    oldrev: str | None = None,
    last_commit: str = "e" * 40,
    title: str = "Rename login_user",
    description: str = "Renames it everywhere.",
) -> dict[str, Any]:
    """A GitLab ``Merge Request Hook`` delivery."""
    attributes: dict[str, Any] = {
        "id": 99, "iid": iid, "target_branch": "main", "source_branch": "rename", "source_project_id": 15,
        "target_project_id": 15, "title": title, "description": description, "state": "opened",
        "merge_status": "unchecked", "url": f"https://gitlab.example/group/shop/-/merge_requests/{iid}",
        "last_commit": {"id": last_commit, "message": "rename", "timestamp": "2026-07-01T10:00:00+00:00"},
        "work_in_progress": False, "draft": False, "action": action,
    }  # fmt: skip
    if oldrev:
        attributes["oldrev"] = oldrev
    return {
        "object_kind": "merge_request", "event_type": "merge_request", "user": {"username": "bo"},
        "project": {"id": 15, "name": "shop", "git_http_url": http_url, "path_with_namespace": "group/shop",
                    "default_branch": "main", "web_url": "https://gitlab.example/group/shop"},
        "object_attributes": attributes, "labels": [], "changes": {},
    }  # fmt: skip


def body_of(payload: dict[str, Any]) -> bytes:
    """The body as a host sends it."""
    return json.dumps(payload).encode()


def github_signature(secret: str, body: bytes) -> str:
    """The X-Hub-Signature-256 value GitHub would send."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
