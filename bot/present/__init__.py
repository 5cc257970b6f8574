"""The presenter: a table, one seat's view or the standings become ``MessageSpec`` data
(text, embeds, buttons with strict custom ids) in the table's language. No Discord objects,
so what a player would see is tested on its own."""

# Each game family's presenter registers itself with ``families`` (read by every renderer).
from . import hokm_view as hokm_view
from . import shelem_view as shelem_view
