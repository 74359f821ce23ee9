"""The Django admin's user forms under the staff page's rule for names: a login added or renamed
there is checked as on the staff page (``staff.free_username``: NFKC, no look-alike letters
mixed, one login per name as a person reads it), its refusal the form's error on the username
field. Django's own forms would store ``Director`` beside ``Ｄirector`` and a Cyrillic
``dirеctor`` beside ``director``.

A login disabled or enabled there is written to the event log and a disabled one's listed
browsers logged out, as on the staff page (``staff.admin_saved``); the rest goes through the
user's own signals, as on every path: a login disabled loses its tokens and its live streams, a
password changed ends its live streams (``services.logins``)."""

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from tdmanager.errors import DomainError

from .services import staff
from .services.events import Actor


class _NameRule:
    """``clean_username`` of both forms: the staff page's rule, the login itself excepted."""

    def clean_username(self):
        try:
            return staff.free_username(self.cleaned_data.get("username"), login=self.instance.pk)
        except DomainError as exc:
            raise forms.ValidationError(str(exc.message), code=exc.code) from None


class LoginCreationForm(_NameRule, AdminUserCreationForm):
    pass


class LoginChangeForm(_NameRule, UserChangeForm):
    pass


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class LoginAdmin(UserAdmin):
    add_form = LoginCreationForm
    form = LoginChangeForm

    def save_model(self, request, obj, form, change):
        was_active = form.initial.get("is_active", obj.is_active) if change else obj.is_active
        super().save_model(request, obj, form, change)
        staff.admin_saved(obj, was_active=was_active, actor=Actor.from_request(request))
