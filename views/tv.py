"""TV mode for a projector: the standings in two columns of large type (a slide per page of
them), then the charts and the season, cycling by itself in the browser (`ui.live_tv`: no run
of this page per slide). A projector shows no page controls (issue 33): no sidebar, header or
menu (a static style block hides them), no language switch (`app.py` draws none here: the
address's `?lang=` chooses) and no link: open another page by its address."""

from stsa.domain import Role
from stsa.ui import data, live, live_tv

live.tv_style()
live_tv.show(data.now(Role.SPECTATOR))  # the room sees the public view (R20)
