from django.contrib import admin

from .models import Club, ClubLog, ClubRole, Member


class ClubRoleInline(admin.TabularInline):
    model = ClubRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "town", "ruleset_preset", "results_public"]
    list_filter = ["ruleset_preset", "results_public"]
    search_fields = ["name", "slug", "town"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [ClubRoleInline]


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "membership_number", "is_active", "is_guest"]
    list_filter = ["club", "is_active", "is_guest"]
    search_fields = ["name", "membership_number", "email"]
    list_select_related = ["club"]
    autocomplete_fields = ["user"]


@admin.register(ClubRole)
class ClubRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "created_at"]
    list_filter = ["club", "role"]
    search_fields = ["user__username", "club__name"]
    list_select_related = ["club", "user"]


@admin.register(ClubLog)
class ClubLogAdmin(admin.ModelAdmin):
    list_display = ["created_at", "club", "action", "summary", "user"]
    list_filter = ["club", "action"]
    search_fields = ["summary"]
    list_select_related = ["club", "user"]
    readonly_fields = ["club", "user", "action", "summary", "params", "detail", "created_at"]

    def has_add_permission(self, request):
        return False
