"""Messages of django-allauth and of Django's password validators that the account pages
show (labels, errors, help texts), marked here so that our catalogs carry them too
because allauth has no Macedonian or Albanian, Django's Macedonian lacks the newest
password texts, and our own words stay consistent with the rest of the site. Our
catalogs come first (LOCALE_PATHS), so these translations are the ones shown.

Nothing imports this module; makemessages reads it.
"""

from django.utils.translation import gettext_noop, ngettext_lazy, pgettext_lazy

MESSAGES = [
    # allauth's forms (allauth/account/forms.py).
    gettext_noop("Username or email"),
    gettext_noop("Username"),
    gettext_noop("Email"),
    gettext_noop("Email address"),
    gettext_noop("Password"),
    gettext_noop("Password (again)"),
    gettext_noop("Current Password"),
    gettext_noop("New Password"),
    gettext_noop("New Password (again)"),
    gettext_noop("Remember Me"),
    gettext_noop("Forgot your password?"),
    pgettext_lazy("field label", "Login"),
    gettext_noop("You must type the same password each time."),
    gettext_noop("Please type your current password."),
    gettext_noop("The new value must be different from the current one."),
    # allauth's adapter (allauth/account/adapter.py).
    gettext_noop("The username and/or password you specified are not correct."),
    gettext_noop("The email address and/or password you specified are not correct."),
    gettext_noop("A user is already registered with this email address."),
    gettext_noop("This account is currently inactive."),
    gettext_noop("Too many failed login attempts. Try again later."),
    gettext_noop("The email address is not assigned to any user account."),
    gettext_noop("Username can not be used. Please use other username."),
    gettext_noop("This email address is already associated with this account."),
    gettext_noop("Incorrect password."),
    gettext_noop("The password reset token was invalid."),
    gettext_noop("Be patient, you are sending too many requests."),
    # Django's password validators (django/contrib/auth/password_validation.py).
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    ngettext_lazy("Your password must contain at least %(min_length)d character.",
                  "Your password must contain at least %(min_length)d characters.", "min_length"),
    ngettext_lazy("This password is too short. It must contain at least %(min_length)d "
                  "character.",
                  "This password is too short. It must contain at least %(min_length)d "
                  "characters.", "min_length"),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("A user with that username already exists."),
]
