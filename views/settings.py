"""Settings (organizer): the tournament's name, setups and the stages playing Battle of Wills,
leader picks, colours, scoring, the seats per qualifier sitting and the time (R4, R5, R9, R10, R12,
R21, R23, R25, R26), the PINs, judges' invitations by QR code and a pause on sign-in (R20)."""

import streamlit as st

from stsa.domain import Role, plural
from stsa.services import admin
from stsa.services import setups as setup_service
from stsa.ui import access, data, organizer, session, widgets

st.title("Settings")
session.only_for(Role.ORGANIZER)
widgets.flash()
me, engine = session.actor(), session.engine()
current = data.now().settings()
setups = setup_service.setup_options()
access.sign_in_pause(engine, me)  # first: people wait until it is lifted

with st.form("settings_form"):
    name = st.text_input("Tournament name", value=current.tournament_name, max_chars=200,
                         key="set_name")
    enabled = st.multiselect(
        "Enabled setups", list(setups), format_func=setups.get, key="set_setups",
        default=[s for s in current.enabled_setups or () if s in setups],
        placeholder="All setups", help=f"None chosen: all {len(setups)} setups are used.")
    stages = list(organizer.BATTLE_OF_WILLS)
    bow = st.radio("Battle of Wills: a “+ Battle of Wills” version of each enabled setup is "
                   "also drawn in", stages, format_func=organizer.BATTLE_OF_WILLS.get,
                   index=stages.index(current.battle_of_wills), key="set_bow")
    methods = list(organizer.PICK_METHODS)
    pick = st.radio("Leader pick method", methods, format_func=organizer.PICK_METHODS.get,
                    index=methods.index(current.pick_method), key="set_pick",
                    horizontal=True)
    votes = st.number_input(
        "Votes per player under Vote Off (X)", min_value=1, max_value=10, step=1,
        value=current.vote_off_votes, key="set_vote_off_votes",
        help="Each player secretly votes off this many of the table's leaders; the two with "
             "the most votes are removed.")
    wild = st.checkbox("Wild card after picks: each player may swap their leader for a random "
                       "removed one", value=current.wild_card, key="set_wild")
    modes = list(organizer.DRAW_MODES)
    mode = st.radio("Draw mode", modes, format_func=organizer.DRAW_MODES.get,
                    index=modes.index(current.draw_mode), key="set_draw_mode",
                    help="Both are random draws from a recorded seed. Balanced prefers, "
                         "among them, fewer repeat opponents, seats that even out and setups "
                         "a player has not played, still with no two tables of a sitting "
                         "on the same setup while enough are enabled.")
    capacity = st.number_input(
        "Seats per qualifier sitting", min_value=3, max_value=10_000, step=1,
        value=current.capacity, key="set_capacity",
        help="When more players are checked in, pre-registered players get seats first (in "
             "registration order), then drop-ins in the order they checked in; the rest wait. "
             "On the Draw page you can open extra tables of four for them.")
    st.markdown("**Leaders removed per table under Hidden Picks (X)**, by base game")
    picks = {game: st.number_input(game, min_value=0, max_value=30, step=1, value=value,
                                   key=f"set_picks_{game}")
             for game, value in setup_service.hidden_picks(current).items()}
    st.markdown("**Player colours**: four different colours")
    colours = [column.text_input(f"Colour {i + 1}", value=colour, max_chars=30,
                                 key=f"set_colour_{i + 1}")
               for i, (column, colour) in enumerate(zip(st.columns(4), current.colours[:4]))]
    st.markdown("**Base points** by placing: highest first")
    points = [column.number_input(place, min_value=0, max_value=1000, step=1, value=int(value),
                                  key=f"set_points_{i + 1}")
              for i, (column, place, value) in enumerate(zip(
                  st.columns(4), organizer.PLACES, current.base_points))]
    st.markdown("**Time**: the schedule, the clock and check-in")
    zones, at, zone_words = organizer.time_zone_choices(current.time_zone)
    zone = st.selectbox("Time zone", zones, index=at, key="set_time_zone",
                        format_func=zone_words)
    minutes = st.number_input("Length of a sitting (minutes)", min_value=10, max_value=600,
                              step=5, value=current.sitting_minutes, key="set_sitting_minutes")
    check_in = st.number_input("Check-in closes, minutes before a sitting starts", min_value=0,
                               max_value=240, step=1, value=current.check_in_minutes,
                               key="set_check_in_minutes")
    at_time = st.text_input("What the clock says at time", value=current.time_words,
                            max_chars=300, key="set_time_words")
    sound = st.checkbox("A sound on the TV at time", value=current.clock_sound,
                        key="set_clock_sound")
    save = st.form_submit_button("Save settings", type="primary", key="settings_save")

if save:
    wanted = {"tournament_name": name, "enabled_setups": enabled or None,
              "battle_of_wills": bow, "pick_method": pick, "vote_off_votes": int(votes),
              "wild_card": wild, "draw_mode": mode, "capacity": int(capacity),
              "hidden_picks": {**current.hidden_picks, **{g: int(n) for g, n in picks.items()}},
              "colours": [" ".join(c.split()) for c in colours],
              "base_points": [int(p) for p in points], "time_zone": zone or None,
              "sitting_minutes": int(minutes), "check_in_minutes": int(check_in),
              "time_words": at_time, "clock_sound": sound}
    saved = widgets.act(lambda: admin.save_settings(engine, wanted, actor=me),
                        done=lambda changes: "Settings saved." if changes else "")
    if saved == {}:
        st.info("Nothing changed.")
    elif saved:
        st.rerun()

st.subheader("PINs", anchor=False)
st.caption("PINs are stored only as hashes, so the current ones cannot be shown. A new PIN has "
           "6 to 64 characters and is not easy to guess (not 123456, 121212 or 112233), and the "
           "organizer's and the judges' PINs must differ. Changing a PIN signs out everyone who "
           "used the old one.")
with st.form("pin_form", clear_on_submit=True):
    whose = st.radio("Whose PIN", [Role.ORGANIZER, Role.JUDGE], key="pin_role",
                     horizontal=True,
                     format_func={Role.ORGANIZER: "Organizer", Role.JUDGE: "Judges"}.get)
    current_pin = st.text_input("Your organizer PIN", type="password", max_chars=64,
                                key="pin_current", help="The organizer PIN you use now.")
    pin = st.text_input("New PIN", type="password", max_chars=64, key="pin_new")
    again = st.text_input("New PIN again", type="password", max_chars=64, key="pin_confirm")
    change = st.form_submit_button("Change PIN", key="pin_save")
if change:
    if not pin or pin != again:
        st.error("Type the same new PIN in both fields. Nothing changed.",
                 icon=":material/warning:")
    elif widgets.act(lambda: admin.set_pin(engine, whose, pin, actor=me, current_pin=current_pin,
                                           client=session.client(), device=session.device())
                     or True,
                     done=f"The {'organizer’s' if whose == Role.ORGANIZER else 'judges’'} PIN "
                          f"is changed: tell the people who use it.") is not None:
        st.rerun()

access.invite_judges(engine, me, current)

st.subheader("Who is signed in", anchor=False)
signed_in = admin.open_sessions(engine, actor=me)
st.dataframe(signed_in.rename(columns={
    "actor": "Name", "role": "Role", "client": "From", "created_at": "Signed in",
    "last_seen_at": "Last seen"}), hide_index=True, width="stretch")
if st.button("Sign everyone out", key="sign_everyone_out",
             help="Ends every open session but yours (you stay signed in): use it if a PIN may "
                  "have leaked."):
    if widgets.act(lambda: admin.sign_everyone_out(engine, actor=me,
                                                   keep=session.current_session_id()),
                   done=lambda n: f"{plural(n, 'session')} ended.") is not None:
        st.rerun()
