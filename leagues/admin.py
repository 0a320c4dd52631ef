"""The leagues in the admin site (imported at the end of ``tournaments.admin``)."""

from django.contrib import admin

from .models import (
    Division,
    League,
    LeagueLog,
    LeagueMatch,
    LeagueTeam,
    MatchTable,
    TeamPlayer,
)

__all__ = ["LeagueAdmin", "LeagueLogAdmin", "LeagueMatchAdmin", "LeagueTeamAdmin"]


class DivisionInline(admin.TabularInline):
    model = Division
    extra = 0


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "season", "organiser", "tables_per_match", "win_by", "is_public"]
    list_filter = ["is_public", "win_by", "points_rule", "competition__club"]
    search_fields = ["name", "season", "competition__club__name"]
    list_select_related = ["competition__club"]
    raw_id_fields = ["competition", "previous"]
    filter_horizontal = ["organisers"]
    inlines = [DivisionInline]

    @admin.display(description=League._meta.get_field("competition").verbose_name)
    def organiser(self, obj):
        return obj.competition.club


class TeamPlayerInline(admin.TabularInline):
    model = TeamPlayer
    extra = 0
    autocomplete_fields = ["member"]
    fields = ["member"]


@admin.register(LeagueTeam)
class LeagueTeamAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "league", "division"]
    list_filter = ["league", "division__level"]
    search_fields = ["name", "club__name", "league__name"]
    list_select_related = ["club", "league", "division"]
    filter_horizontal = ["captains"]
    raw_id_fields = ["previous"]
    inlines = [TeamPlayerInline]

    def save_formset(self, request, form, formset, change):
        for player in formset.save(commit=False):
            player.league_id = form.instance.league_id
            player.save()
        for obj in formset.deleted_objects:
            obj.delete()
        formset.save_m2m()


class MatchTableInline(admin.TabularInline):
    model = MatchTable
    extra = 0
    can_delete = False
    readonly_fields = [
        "table",
        "game_number",
        "table_number",
        "home_pair",
        "away_pair",
        "home_side",
    ]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(LeagueMatch)
class LeagueMatchAdmin(admin.ModelAdmin):
    list_display = ["date", "matchday", "division", "home", "away", "status"]
    list_filter = ["status", "league", "division__level"]
    search_fields = ["home__name", "away__name", "league__name"]
    list_select_related = ["division", "home", "away"]
    date_hierarchy = "date"
    readonly_fields = ["evening", "confirmed_home_by", "confirmed_home_at"]
    readonly_fields += ["confirmed_away_by", "confirmed_away_at"]
    inlines = [MatchTableInline]


@admin.register(LeagueLog)
class LeagueLogAdmin(admin.ModelAdmin):
    list_display = ["created_at", "league", "user", "summary"]
    list_filter = ["league"]
    list_select_related = ["league", "user"]

    def has_change_permission(self, request, obj=None):
        return False
