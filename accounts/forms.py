"""Forms for the account pages. They validate only; the services write."""

from __future__ import annotations

import unicodedata
from typing import Any, cast

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.countries import localized_choices
from accounts.models import (
    BIO_MAX_LENGTH,
    DELETED_PLAYER_NAME,
    TOKEN_NAME_MAX_LENGTH,
    Profile,
)


class ProfileForm(forms.ModelForm):
    """Display name, bio, country, language: what the settings page edits."""

    class Meta:
        model = Profile
        fields = ["display_name", "bio", "country", "preferred_language"]
        labels = {
            "display_name": _("Display name"),
            "bio": _("About you"),
            "country": _("Country"),
            "preferred_language": _("Language"),
        }
        help_texts = {
            "display_name": _("Shown at tables and on your profile. Leave empty to use your "
                              "username."),
        }
        widgets = {"bio": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Countries named and sorted in the page's language (CLDR).
        country = cast(forms.ChoiceField, self.fields["country"])
        country.choices = [("", gettext("— not shown —")), *localized_choices()]
        self.fields["bio"].help_text = gettext(
            "A line or two for other players, at most %(n)d characters.") % {"n": BIO_MAX_LENGTH}

    def clean_display_name(self) -> str:
        """Refuse names that hide characters or pass for a deleted account."""
        name = " ".join(self.cleaned_data["display_name"].split())
        if any(unicodedata.category(c) in {"Cc", "Cf", "Co", "Cs"} for c in name):
            raise forms.ValidationError(
                gettext("Use letters, digits, spaces and punctuation only."))
        if name.casefold() in {DELETED_PLAYER_NAME, gettext(DELETED_PLAYER_NAME).casefold()}:
            raise forms.ValidationError(gettext("That name is reserved. Please choose another."))
        return name

    def clean_bio(self) -> str:
        """Keep line breaks but drop other control characters."""
        bio = self.cleaned_data["bio"].strip()
        return "".join(c for c in bio if c in "\n\t" or unicodedata.category(c) != "Cc")


class DeleteAccountForm(forms.Form):
    """The confirmation step: type your username to delete your account."""

    confirm_username = forms.CharField(
        label=_("Type your username to confirm"),
        max_length=150,
        strip=True,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none",
                                      "spellcheck": "false"}),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_confirm_username(self) -> str:
        """It must be exactly the username (case and all): this is not undoable."""
        typed = self.cleaned_data["confirm_username"]
        if typed != self.user.get_username():
            raise forms.ValidationError(gettext(
                "That is not your username. Type it exactly as shown to delete your account."
            ))
        return typed


class AccessTokenForm(forms.Form):
    """A new API token's name: where it will be used ("my stats script")."""

    name = forms.CharField(label=_("Token name"), max_length=TOKEN_NAME_MAX_LENGTH, strip=True,
                           help_text=_("Where you will use it, e.g. “my stats script”."),
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))
