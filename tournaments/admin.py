from django.contrib import admin

from .models import Attendance, Competition, Evening, EveningLog, Pair, Period, Round, Seat, Table


class PeriodInline(admin.TabularInline):
    model = Period
    extra = 0


class PairInline(admin.TabularInline):
    model = Pair
    extra = 0
    autocomplete_fields = ["first", "second"]


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "format", "kind", "start_date", "end_date", "ruleset_preset"]
    list_filter = ["club", "format", "kind", "ruleset_preset"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]
    date_hierarchy = "start_date"
    inlines = [PeriodInline, PairInline]


class AttendanceInline(admin.TabularInline):
    model = Attendance
    extra = 0
    autocomplete_fields = ["member"]


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ["date", "competition", "status", "counts_for_ranking"]
    list_filter = ["status", "counts_for_ranking", "competition__club"]
    search_fields = ["competition__name", "note"]
    list_select_related = ["competition"]
    date_hierarchy = "date"
    inlines = [AttendanceInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["evening", "number", "partner_repeats", "opponent_repeats", "drawn_at"]
    list_filter = ["evening__competition__club"]
    list_select_related = ["evening__competition"]
    search_fields = ["evening__competition__name"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number"]
    list_select_related = ["round__evening__competition"]
    search_fields = ["round__evening__competition__name"]
    readonly_fields = ["token"]

    def has_delete_permission(self, request, obj=None):
        # Tables go with their round (taken back on the round page), never one by one.
        return False


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "position", "member", "substitute"]
    list_filter = ["position"]
    list_select_related = ["round__evening__competition", "table", "member"]
    search_fields = ["member__name", "substitute"]

    def has_delete_permission(self, request, obj=None):
        # Seats go with their round (taken back on the round page), never one by one:
        # a round without one of its players is no longer the round that was played.
        return False


@admin.register(EveningLog)
class EveningLogAdmin(admin.ModelAdmin):
    list_display = ["created_at", "evening", "summary", "user"]
    list_select_related = ["evening__competition", "user"]
    search_fields = ["summary"]
