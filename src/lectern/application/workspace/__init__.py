"""Research workspaces: the membership-scoped service, its ports and automatic reviews."""
