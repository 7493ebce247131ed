"""Forms for the lobby. Validation of the game rules themselves lives in the services."""

from __future__ import annotations

from django import forms
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import BotLevel, Table


class CreateTableForm(forms.Form):
    """Create a casual table. Ranked tables are made only by the ranked queue,
    so the kind is shown disabled, with a link to the Ranked page."""

    name = forms.CharField(label=_("Name"), max_length=60, initial=_("Kozel table"))
    kind = forms.ChoiceField(label=_("Kind"), choices=Table.Kind.choices,
                             initial=Table.Kind.CASUAL)
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Table.Visibility.choices,
                                   initial=Table.Visibility.PUBLIC, widget=forms.RadioSelect)
    turn_seconds = forms.TypedChoiceField(
        choices=[("", _("No clock")), ("15", _("15 s")), ("30", _("30 s")), ("60", _("60 s"))],
        coerce=int, empty_value=None, required=False, initial="", label=_("Turn clock"))
    series_target = forms.TypedChoiceField(
        choices=[("6", "6"), ("12", "12"), ("18", "18")], coerce=int, initial="12",
        label=_("Series to (loss points)"))
    # A new player expects to sit at the table they made; a host of others unticks it.
    sit = forms.BooleanField(required=False, initial=True, label=_("Take a seat myself"))
    start_when_full = forms.BooleanField(required=False, initial=False,
                                         label=_("Start automatically when all four seats "
                                                 "are filled"))

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["kind"].widget.attrs["disabled"] = "disabled"
        self.fields["kind"].required = False
        # Set here, not on the field: URLs cannot be reversed while the form class loads.
        self.fields["kind"].help_text = format_html(
            gettext('Ranked tables are matched by the queue: <a href="{}">play ranked</a>.'),
            reverse("queue:ranked"))

    def clean_kind(self) -> str:
        # The field is disabled in the page; ranked tables come from the queue only.
        return Table.Kind.CASUAL


class PositionForm(forms.Form):
    """A seat position 0–3 posted by a lobby button."""

    position = forms.TypedChoiceField(choices=[(str(i), str(i)) for i in range(4)], coerce=int)


class AddBotForm(PositionForm):
    level = forms.ChoiceField(choices=BotLevel.choices, initial=BotLevel.RANDOM)
