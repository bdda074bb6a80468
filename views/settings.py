"""Settings (organizer): the tournament's name, setups and the stages playing Battle of Wills,
leader picks, colours, scoring, the seats per qualifier sitting and the time (R4, R5, R9, R10, R12,
R21, R23, R25, R26), the PINs, judges' invitations by QR code and a pause on sign-in (R20)."""

import streamlit as st

from stsa import i18n
from stsa.domain import Role
from stsa.i18n import _
from stsa.services import admin
from stsa.services import setups as setup_service
from stsa.services import tournaments as tournament_service
from stsa.ui import access, data, organizer, session, widgets

st.title(_("Settings"))
session.only_for(Role.ORGANIZER)
widgets.flash()
me, engine = session.actor(), session.engine()
current = data.now().settings()
setups = setup_service.setup_options()
access.sign_in_pause(engine, me)  # first: people wait until it is lifted

with st.form("settings_form"):
    name = st.text_input(_("Tournament name"), value=current.tournament_name, max_chars=200,
                         key="set_name")
    st.caption(tournament_service.links_words(engine))
    enabled = st.multiselect(
        _("Enabled setups"), list(setups), format_func=setups.get, key="set_setups",
        default=[s for s in current.enabled_setups or () if s in setups],
        placeholder=_("All setups"),
        help=_("None chosen: all {count} setups are used.").format(count=len(setups)))
    stages = list(organizer.BATTLE_OF_WILLS)
    bow = st.radio(_("Battle of Wills: a “+ Battle of Wills” version of each enabled setup is "
                     "also drawn in"), stages,
                   format_func=organizer.shown(organizer.BATTLE_OF_WILLS),
                   index=stages.index(current.battle_of_wills), key="set_bow")
    methods = list(organizer.PICK_METHODS)
    pick = st.radio(_("Leader pick method"), methods,
                    format_func=organizer.shown(organizer.PICK_METHODS),
                    index=methods.index(current.pick_method), key="set_pick",
                    horizontal=True)
    votes = st.number_input(
        _("Votes per player under Vote Off (X)"), min_value=1, max_value=10, step=1,
        value=current.vote_off_votes, key="set_vote_off_votes",
        help=_("Each player secretly votes off this many of the table's leaders; the two with "
               "the most votes are removed."))
    wild = st.checkbox(_("Wild card after picks: each player may swap their leader for a random "
                         "removed one"), value=current.wild_card, key="set_wild")
    modes = list(organizer.DRAW_MODES)
    mode = st.radio(_("Draw mode"), modes, format_func=organizer.shown(organizer.DRAW_MODES),
                    index=modes.index(current.draw_mode), key="set_draw_mode",
                    help=_("Both are random draws from a recorded seed. Balanced prefers, "
                           "among them, fewer repeat opponents, seats that even out and setups "
                           "a player has not played, still with no two tables of a sitting "
                           "on the same setup while enough are enabled."))
    capacity = st.number_input(
        _("Seats per qualifier sitting"), min_value=3, max_value=10_000, step=1,
        value=current.capacity, key="set_capacity",
        help=_("When more players are checked in, pre-registered players get seats first (in "
               "registration order), then drop-ins in the order they checked in; the rest "
               "wait. On the Draw page you can open extra tables of four for them."))
    st.markdown(_("**Leaders removed per table under Hidden Picks (X)**, by base game"))
    picks = {game: st.number_input(game, min_value=0, max_value=30, step=1, value=value,
                                   key=f"set_picks_{game}")
             for game, value in setup_service.hidden_picks(current).items()}
    st.markdown(_("**Player colours**: four different colours"))
    colours = [column.text_input(_("Colour {number}").format(number=i + 1), value=colour,
                                 max_chars=30, key=f"set_colour_{i + 1}")
               for i, (column, colour) in enumerate(zip(st.columns(4), current.colours[:4]))]
    st.markdown(_("**Base points** by placing: highest first"))
    points = [column.number_input(_(place), min_value=0, max_value=1000, step=1, value=int(value),
                                  key=f"set_points_{i + 1}")
              for i, (column, place, value) in enumerate(zip(
                  st.columns(4), organizer.PLACES, current.base_points))]
    st.markdown(_("**Time**: the schedule, the clock and check-in"))
    zones, at, zone_words = organizer.time_zone_choices(current.time_zone)
    zone = st.selectbox(_("Time zone"), zones, index=at, key="set_time_zone",
                        format_func=zone_words)
    minutes = st.number_input(_("Length of a sitting (minutes)"), min_value=10, max_value=600,
                              step=5, value=current.sitting_minutes, key="set_sitting_minutes")
    check_in = st.number_input(_("Check-in closes, minutes before a sitting starts"), min_value=0,
                               max_value=240, step=1, value=current.check_in_minutes,
                               key="set_check_in_minutes")
    at_time = st.text_input(_("What the clock says at time"), value=current.time_words,
                            max_chars=300, key="set_time_words")
    sound = st.checkbox(_("A sound on the TV at time"), value=current.clock_sound,
                        key="set_clock_sound")
    languages = [None, *i18n.LANGUAGES]
    language = st.selectbox(
        _("Language"), languages, key="set_language",
        index=languages.index(current.language),
        format_func=lambda code: _("Each reader's own language") if code is None
        else i18n.language_name(code),
        help=_("The pages' default language (each reader may choose another) and the language "
               "of the table slips, the pairing lists and the workbook."))
    save = st.form_submit_button(_("Save settings"), type="primary", key="settings_save")

if save:
    wanted = {"tournament_name": name, "enabled_setups": enabled or None,
              "battle_of_wills": bow, "pick_method": pick, "vote_off_votes": int(votes),
              "wild_card": wild, "draw_mode": mode, "capacity": int(capacity),
              "hidden_picks": {**current.hidden_picks, **{g: int(n) for g, n in picks.items()}},
              "colours": [" ".join(c.split()) for c in colours],
              "base_points": [int(p) for p in points], "time_zone": zone or None,
              "sitting_minutes": int(minutes), "check_in_minutes": int(check_in),
              "time_words": at_time, "clock_sound": sound, "language": language}
    saved = widgets.act(lambda: admin.save_settings(engine, wanted, actor=me),
                        done=lambda changes: _("Settings saved.") if changes else "")
    if saved == {}:
        st.info(_("Nothing changed."))
    elif saved:
        st.rerun()

st.subheader(_("PINs"), anchor=False)
st.caption(_("PINs are stored only as hashes, so the current ones cannot be shown. A new PIN has "
             "6 to 64 characters and is not easy to guess (not 123456, 121212 or 112233), and "
             "the organizer's and the judges' PINs must differ. Changing a PIN signs out "
             "everyone who used the old one and withdraws the open judge invitations it "
             "concerns (the organizer's: all of them)."))
with st.form("pin_form", clear_on_submit=True):
    whose = st.radio(_("Whose PIN"), [Role.ORGANIZER, Role.JUDGE], key="pin_role",
                     horizontal=True,
                     format_func=lambda r: _("Organizer") if r == Role.ORGANIZER else _("Judges"))
    current_pin = st.text_input(_("Your organizer PIN"), type="password", max_chars=64,
                                key="pin_current", help=_("The organizer PIN you use now."))
    pin = st.text_input(_("New PIN"), type="password", max_chars=64, key="pin_new")
    again = st.text_input(_("New PIN again"), type="password", max_chars=64, key="pin_confirm")
    change = st.form_submit_button(_("Change PIN"), key="pin_save")
if change:
    if not pin or pin != again:
        st.error(_("Type the same new PIN in both fields. Nothing changed."),
                 icon=":material/warning:")
    elif widgets.act(lambda: admin.set_pin(engine, whose, pin, actor=me, current_pin=current_pin,
                                           client=session.client(), device=session.device()),
                     done=lambda ended: " ".join((
                         _("The organizer’s PIN is changed: tell the people who use it.")
                         if whose == Role.ORGANIZER
                         else _("The judges’ PIN is changed: tell the people who use it."),
                         admin.ended_words(ended) if ended != admin.Ended() else ""
                     )).strip()) is not None:
        st.rerun()

access.invite_judges(engine, me, current)

access.signed_in(engine, me, current)  # who is signed in, open invitations, sign-out
