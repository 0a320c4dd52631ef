"""Games, hands, adjustments and the audit log in the admin: to look things up.

Scores change only through the services (which score, lock, and log every
change), so these are read-only here; corrections go through the director's
score sheet and adjustments.
"""

from django.contrib import admin

from .models import Adjustment, AuditEntry, Game, Hand


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    can_delete = False
    fields = (
        "number",
        "playing",
        "points_a",
        "points_b",
        "roem_a",
        "roem_b",
        "declared_a",
        "declared_b",
        "pit",
        "verzaakt",
        "score_a",
        "score_b",
        "nat",
        "entered_via",
    )
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "status",
        "hands_entered",
        "total_a",
        "total_b",
        "scorer_team",
        "confirmed_by",
        "updated_at",
    )
    list_filter = ("status", "table__round__evening__competition__club", "table__round__evening")
    search_fields = (
        "confirmed_by",
        "table__round__evening__competition__name",
        "table__round__evening__competition__club__name",
    )
    list_select_related = ("table__round__evening__competition",)
    inlines = [HandInline]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = (
        "game",
        "number",
        "playing",
        "points_a",
        "points_b",
        "roem_a",
        "roem_b",
        "pit",
        "score_a",
        "score_b",
        "nat",
        "entered_via",
        "created_at",
    )
    list_filter = (
        "nat",
        "verzaakt",
        "playing",
        "pit",
        "entered_via",
        "game__table__round__evening",
    )
    search_fields = ("client_id", "game__table__round__evening__competition__name")
    list_select_related = ("game__table__round__evening__competition",)


@admin.register(Adjustment)
class AdjustmentAdmin(ReadOnlyAdmin):
    list_display = ("evening", "kind", "member", "game", "team", "points", "reason", "created_by")
    list_filter = ("kind", "evening__competition__club", "evening")
    search_fields = ("reason", "member__name")
    list_select_related = ("evening__competition", "member", "created_by")


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "game", "hand_number", "action", "actor", "reason")
    list_filter = ("action", "game__table__round__evening__competition__club")
    search_fields = ("actor", "reason", "user__username")
    list_select_related = ("game__table__round__evening__competition",)
    date_hierarchy = "created_at"
