"""Competition, evening and round pages: parse, call one service or selector, render."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.models import Member
from clubs.permissions import Capability, club_required, may
from common.forms import apply_validation_error, error_messages
from common.params import id_or_404, parse_int
from common.rulesets import describe_ruleset
from scoring.rules import InvalidRuleset, get_ruleset

from . import selectors, services
from .forms import CompetitionForm, DeleteForm, EveningForm, GuestForm, PairForm, PeriodForm
from .models import Attendance, Competition, Evening, Pair, Period, Round, Seat
from .words import describe_settings, no_free_substitute


def _competition(club, pk):
    return get_object_or_404(club.competitions, pk=pk)


def _evening(club, pk):
    return get_object_or_404(
        Evening.objects.select_related("competition"), competition__club=club, pk=pk
    )


def _round(club, pk):
    return get_object_or_404(
        Round.objects.select_related("evening__competition"),
        evening__competition__club=club,
        pk=pk,
    )


def _unplayed_words(numbers):
    """ "Round 3 has not been played." for the close question and its warning."""
    return ngettext(
        "Round %(rounds)s has not been played.",
        "Rounds %(rounds)s have not been played.",
        len(numbers),
    ) % {"rounds": ", ".join(str(n) for n in numbers)}


def _club_ruleset(club):
    """The club's rule set, where a new competition's starts; its bare preset when
    the club's stored changes are refused by the core."""
    try:
        return club.ruleset()
    except InvalidRuleset:
        return get_ruleset(club.ruleset_preset)


def _competition_form_page(request, club, form, competition=None):
    """The form with the rule set it gives stated in plain words above it."""
    context = {
        "club": club,
        "form": form,
        "competition": competition,
        "ruleset_words": form.ruleset_words(),
    }
    return render(request, "tournaments/competition_form.html", context)


@club_required(Capability.RUN_COMPETITIONS)
def competition_create(request, club):
    form = CompetitionForm(request.POST or None, shown=_club_ruleset(club))
    if request.method == "POST" and form.is_valid():
        try:
            competition = services.competition_create(
                club=club, by=request.user, **form.cleaned_data
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Competition created."))
            return redirect(competition)
    return _competition_form_page(request, club, form)


@club_required(Capability.RUN_COMPETITIONS)
def competition_edit(request, club, pk):
    competition = _competition(club, pk)
    locked = services.competition_has_play(competition)
    form = CompetitionForm(request.POST or None, instance=competition, locked=locked)
    if request.method == "POST" and form.is_valid():
        try:
            services.competition_update(
                competition=competition, by=request.user, **form.cleaned_data
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Competition saved."))
            return redirect(competition)
    return _competition_form_page(request, club, form, competition)


@club_required()
def competition_detail(request, club, pk):
    competition = _competition(club, pk)
    can_manage = may(request.user, club, Capability.RUN_COMPETITIONS)
    context = {
        "club": club,
        "competition": competition,
        "evenings": selectors.competition_evenings(competition=competition),
        "pairs": competition.pairs.select_related("first", "second"),
        "periods": competition.periods.all(),
        "can_manage": can_manage,
        "can_import_results": may(request.user, club, Capability.IMPORT_RESULTS),
        # The rules of play, then the ranking, scores and prizes as the standings state them.
        "ruleset_words": describe_ruleset(competition.ruleset()) + describe_settings(competition),
        "pair_form": PairForm(club=club) if can_manage else None,
        "period_form": PeriodForm() if can_manage else None,
    }
    return render(request, "tournaments/competition_detail.html", context)


@require_POST
@club_required(Capability.RUN_COMPETITIONS)
def pair_add(request, club, pk):
    competition = _competition(club, pk)
    form = PairForm(request.POST, club=club)
    if form.is_valid():
        try:
            services.pair_add(competition=competition, by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            error_messages(request, exc)
    else:
        error_messages(request, ValidationError(_("Choose two players.")))
    return redirect(competition)


@require_POST
@club_required(Capability.RUN_COMPETITIONS)
def pair_remove(request, club, pk, pair):
    competition = _competition(club, pk)
    pair = get_object_or_404(Pair, competition=competition, pk=pair)
    try:
        services.pair_remove(pair=pair, by=request.user)
    except ValidationError as exc:
        error_messages(request, exc)
    return redirect(competition)


@require_POST
@club_required(Capability.RUN_COMPETITIONS)
def period_add(request, club, pk):
    competition = _competition(club, pk)
    form = PeriodForm(request.POST)
    if form.is_valid():
        try:
            services.period_add(competition=competition, by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            error_messages(request, exc)
    else:
        for errors in form.errors.values():
            error_messages(request, ValidationError(errors))
    return redirect(competition)


@require_POST
@club_required(Capability.RUN_COMPETITIONS)
def period_remove(request, club, pk, period):
    competition = _competition(club, pk)
    period = get_object_or_404(Period, competition=competition, pk=period)
    services.period_remove(period=period, by=request.user)
    return redirect(competition)


@club_required(Capability.RUN_COMPETITIONS)
def evening_create(request, club, pk):
    competition = _competition(club, pk)
    today = timezone.localdate()
    initial = {"date": selectors.next_club_night(competition=competition, today=today)}
    form = EveningForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            evening = services.evening_create(
                competition=competition, by=request.user, **form.cleaned_data
            )
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, _("Evening added."))
            return redirect(evening)
    context = {"club": club, "competition": competition, "form": form}
    return render(request, "tournaments/evening_form.html", context)


@club_required()
def evening_detail(request, club, pk):
    evening = _evening(club, pk)
    can_manage = may(request.user, club, Capability.RUN_COMPETITIONS)
    present = evening.attendances.filter(status=Attendance.Status.PRESENT).count()
    close_question = _("Close the evening? Its result becomes final.")
    if can_manage and evening.is_open:
        unplayed = selectors.evening_unplayed_rounds(evening=evening)
        if unplayed:
            close_question += " " + _unplayed_words(unplayed)
    context = {
        "close_question": close_question,
        "club": club,
        "evening": evening,
        "competition": evening.competition,
        "rounds": selectors.evening_rounds(evening=evening),
        "present": present,
        "can_manage": can_manage,
        "can_score": may(request.user, club, Capability.SCORE),
        "statuses": Evening.Status,
    }
    if can_manage and evening.is_open:
        context["draw_choices"] = selectors.draw_choices(evening=evening)
    return render(request, "tournaments/evening_detail.html", context)


@club_required(Capability.RUN_COMPETITIONS)
def evening_attendance(request, club, pk):
    evening = _evening(club, pk)
    if request.method == "POST":
        if "everyone" in request.POST:
            try:
                count = services.attendance_all_present(evening=evening, by=request.user)
            except ValidationError as exc:
                error_messages(request, exc)
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(count)s player marked present.",
                        "%(count)s players marked present.",
                        count,
                    )
                    % {"count": count},
                )
            return redirect(request.path)
        if "guest" in request.POST:
            form = GuestForm(request.POST)
            if form.is_valid():
                try:
                    services.guest_check_in(
                        evening=evening, name=form.cleaned_data["name"], by=request.user
                    )
                except ValidationError as exc:
                    error_messages(request, exc)
            else:
                error_messages(request, ValidationError(form.errors["name"]))
        else:
            member = get_object_or_404(Member, club=club, pk=id_or_404(request.POST.get("member")))
            status = request.POST.get("status") or None
            try:
                if status == Attendance.Status.LEFT and "left_after" in request.POST:
                    services.attendance_leave(
                        evening=evening,
                        member=member,
                        after_round=parse_int(request.POST["left_after"], maximum=99),
                        by=request.user,
                    )
                else:
                    services.attendance_set(
                        evening=evening, member=member, status=status, by=request.user
                    )
            except ValidationError as exc:
                if _wants_json(request):
                    return JsonResponse({"errors": exc.messages}, status=400)
                error_messages(request, exc)
            else:
                if _wants_json(request):
                    return _attendance_row(request, evening, member)
        return redirect(f"{request.path}#m{request.POST.get('member', '')}")
    rows = selectors.evening_attendance(evening=evening)
    context = {
        "club": club,
        "evening": evening,
        "rows": rows,
        "present": sum(
            1 for _m, attendance in rows if attendance.status == Attendance.Status.PRESENT
        ),
        "guest_form": GuestForm(),
        "Status": Attendance.Status,
        "leave_after": selectors.leave_after_choices(evening=evening),
    }
    return render(request, "tournaments/evening_attendance.html", context)


def _wants_json(request):
    """A tap sent by static/js/attendance.js (fetch), not a plain form POST."""
    return request.headers.get("Accept", "").startswith("application/json")


def _attendance_row(request, evening, member):
    """The member's row as it is now, and the evening's present count, for the page's script."""
    attendance = evening.attendances.filter(member=member).first()
    context = {
        "member": member,
        "attendance": attendance or selectors.NO_ATTENDANCE,
        "Status": Attendance.Status,
        "leave_after": selectors.leave_after_choices(evening=evening),
    }
    row = render_to_string("tournaments/includes/attendance_row.html", context, request=request)
    present = evening.attendances.filter(status=Attendance.Status.PRESENT).count()
    return JsonResponse({"row": row, "present": present})


@require_POST
@club_required(Capability.RUN_COMPETITIONS)
def evening_status(request, club, pk):
    evening = _evening(club, pk)
    status = request.POST.get("status", "")
    unplayed = selectors.evening_unplayed_rounds(evening=evening)
    try:
        services.evening_set_status(evening=evening, status=status, by=request.user)
    except ValidationError as exc:
        error_messages(request, exc)
    else:
        if status == Evening.Status.FINISHED and unplayed:
            messages.warning(request, _("The evening is closed.") + " " + _unplayed_words(unplayed))
    return redirect(evening)


@require_POST
@club_required(Capability.RUN_COMPETITIONS)
def round_draw(request, club, pk):
    evening = _evening(club, pk)
    odd_mode = request.POST.get("odd_mode")
    if odd_mode not in Competition.OddPlayers.values:
        odd_mode = None
    try:
        round_ = services.round_draw(evening=evening, by=request.user, odd_mode=odd_mode)
    except ValidationError as exc:
        error_messages(request, exc)
        return redirect(evening)
    messages.success(request, _("Round %(number)s is drawn.") % {"number": round_.number})
    return redirect(round_)


@club_required()
def round_detail(request, club, pk):
    round_ = _round(club, pk)
    plan, sitouts = selectors.round_plan(round_=round_)
    wall = request.GET.get("wall") == "1"
    # The wall shows the plan only: no director's buttons, no private entry links.
    can_manage = may(request.user, club, Capability.RUN_COMPETITIONS) and not wall
    # Seats can change, and the draw be taken back, only before the first hand
    # (the services refuse it later; the page does not offer it).
    changeable = (
        can_manage
        and round_.evening.is_open
        and round_.evening.competition.format != Competition.Format.LEAGUE
        and not any(row["game"] and row["game"].hands_entered for row in plan)
    )
    context = {
        "club": club,
        "round": round_,
        "evening": round_.evening,
        "plan": plan,
        "sitouts": sitouts,
        "can_manage": can_manage,
        "can_score": may(request.user, club, Capability.SCORE) and not wall,
        "can_swap": changeable,
        "can_take_back": changeable and selectors.round_is_last(round_=round_),
        "empty_seats": [
            seat for row in plan for seat in row["seats"] if seat and seat.member_id is None
        ]
        if can_manage and round_.evening.is_open
        else [],
        "wall": wall,
        "late_pairs": selectors.round_late_pairs(round_=round_),
        "movement": round_.evening.competition.movement,
    }
    if context["empty_seats"]:
        context["substitute_candidates"] = list(selectors.substitute_candidates(round_=round_))
        context["no_free_substitute"] = no_free_substitute(round_.evening.competition)
    return render(request, "tournaments/round_detail.html", context)


@require_POST
@club_required(Capability.RUN_COMPETITIONS)
def seat_substitute(request, club, pk):
    """Choose the member who plays the empty seat of a table of three."""
    round_ = _round(club, pk)
    seat = get_object_or_404(Seat, round=round_, pk=id_or_404(request.POST.get("seat")))
    member = Member.objects.filter(pk=id_or_404(request.POST.get("member"))).first()
    try:
        services.seat_substitute_set(seat=seat, member=member, by=request.user)
    except ValidationError as exc:
        error_messages(request, exc)
    else:
        messages.success(request, _("The substitute is chosen."))
    return redirect(round_)


@require_POST
@club_required(Capability.RUN_COMPETITIONS)
def seat_swap(request, club, pk):
    round_ = _round(club, pk)
    first = get_object_or_404(Seat, round=round_, pk=id_or_404(request.POST.get("first")))
    second = get_object_or_404(Seat, round=round_, pk=id_or_404(request.POST.get("second")))
    try:
        services.seat_swap(round_=round_, first=first, second=second, by=request.user)
    except ValidationError as exc:
        error_messages(request, exc)
    else:
        messages.success(request, _("Swapped."))
    return redirect(round_)


@require_POST
@club_required(Capability.RUN_COMPETITIONS)
def round_delete(request, club, pk):
    round_ = _round(club, pk)
    evening = round_.evening
    try:
        services.round_delete(round_=round_, by=request.user)
    except ValidationError as exc:
        error_messages(request, exc)
        return redirect(round_)
    messages.success(request, _("The round is taken back."))
    return redirect(evening)


def _delete_page(request, club, *, obj, evenings, expected, delete, done, back, context):
    """The confirmation page of deleting ``obj``: what goes (``selectors.deletion``),
    the typed confirmation while confirmed results would be lost; a POST with the
    page's button calls ``delete(typed)`` (the service) and goes to ``done``."""
    deleting = selectors.deletion(evenings=evenings)
    form = DeleteForm(
        request.POST if request.method == "POST" else None,
        expected=expected,
        needs_typing=bool(deleting.confirmed),
    )
    if request.method == "POST" and "confirm" in request.POST and form.is_valid():
        try:
            delete(form.cleaned_data["typed"])
        except ValidationError as exc:
            apply_validation_error(form, exc)
        else:
            messages.success(request, done[1])
            return redirect(done[0])
    context = {
        "club": club,
        "deleting": deleting,
        "form": form,
        "expected": expected,
        "back": back,
        "league": getattr(obj, "competition", obj).format == Competition.Format.LEAGUE,
        **context,
    }
    return render(request, "tournaments/delete_confirm.html", context)


@club_required(Capability.RUN_COMPETITIONS)
def evening_delete(request, club, pk):
    evening = _evening(club, pk)
    date = evening.date.isoformat()
    return _delete_page(
        request,
        club,
        obj=evening,
        evenings=Evening.objects.filter(pk=evening.pk),
        expected=date,
        delete=lambda typed: services.evening_delete(evening=evening, by=request.user, typed=typed),
        done=(
            evening.competition,
            _("The evening of %(date)s is deleted.") % {"date": date},
        ),
        back=evening.get_absolute_url(),
        context={"evening": evening, "competition": evening.competition},
    )


@club_required(Capability.RUN_COMPETITIONS)
def competition_delete(request, club, pk):
    competition = _competition(club, pk)
    return _delete_page(
        request,
        club,
        obj=competition,
        evenings=Evening.objects.filter(competition=competition),
        expected=competition.name,
        delete=lambda typed: services.competition_delete(
            competition=competition, by=request.user, typed=typed
        ),
        done=(club, _("%(name)s is deleted.") % {"name": competition.name}),
        back=competition.get_absolute_url(),
        context={"competition": competition},
    )
