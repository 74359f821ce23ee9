"""The Django admin's user forms under the staff page's rule for names: a login added or renamed
there is checked as on the staff page (``staff.free_username``: NFKC, no look-alike letters
mixed, one login per name as a person reads it), its refusal the form's error on the username
field. Django's own forms would store ``Director`` beside ``Ｄirector`` and a Cyrillic
``dirеctor`` beside ``director``.

A login disabled or enabled there is written to the event log and a disabled one's listed
browsers logged out, as on the staff page (``staff.admin_saved``); the rest goes through the
user's own signals, as on every path: a login disabled loses its tokens and its live streams, a
password changed ends its live streams (``services.logins``). A login added there is in the
event log as one added on the staff page (``staff.admin_added``); one whose role its groups or
superuser flag change is logged and its live streams end, as on the staff page
(``staff.admin_role_saved``).

The room keeps its last active director here as on the staff page: the change form refuses to
disable it, untick its superuser flag or take it out of the director's group, and the delete page
and the list's "delete selected" refuse to delete it, each with nothing changed
(``staff.admin_keeps_director``, ``staff.admin_delete``: the staff page's rule and lock). A login
deleted there is logged out of its browsers and live streams, and in the event log."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.actions import delete_selected as django_delete_selected
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.db import transaction
from django.http import HttpResponseRedirect
from django.urls import reverse

from tdmanager.errors import DomainError
from tdmanager.policy import DIRECTOR
from tournaments.eventlog.services import Actor
from tournaments.staff import services as staff


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
    def clean(self):
        """The room keeps its last active director (``staff.admin_keeps_director``), checked with
        the directors' rows locked for the rest of the admin's transaction: the groups it saves
        after the login itself are those checked here."""
        cleaned = super().clean()
        if self.instance.pk is None or self.errors:
            return cleaned
        groups = cleaned["groups"] if "groups" in self.fields else self.instance.groups.all()
        director = cleaned.get("is_superuser", self.instance.is_superuser) or any(g.name == DIRECTOR for g in groups)
        try:
            staff.admin_keeps_director(self.instance.pk, active=cleaned.get("is_active", self.instance.is_active), director=director)
        except DomainError as exc:
            raise forms.ValidationError(str(exc.message), code=exc.code) from None
        return cleaned


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class LoginAdmin(UserAdmin):
    add_form = LoginCreationForm
    form = LoginChangeForm

    actions = ["delete_selected"]

    def save_model(self, request, obj, form, change):
        was_active = form.initial.get("is_active", obj.is_active) if change else obj.is_active
        if change:  # the role before the form's groups are saved (``save_related``); per request, not on this shared admin
            request._tdm_role_before = staff.role_of(get_user_model().objects.get(pk=obj.pk))
        super().save_model(request, obj, form, change)
        if change:
            staff.admin_saved(obj, was_active=was_active, actor=Actor.from_request(request))
        else:
            staff.admin_added(obj, actor=Actor.from_request(request))

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if change:
            staff.admin_role_saved(form.instance, before=request._tdm_role_before, actor=Actor.from_request(request))

    def delete_model(self, request, obj):
        staff.admin_delete([obj.pk], actor=Actor.from_request(request))

    def delete_queryset(self, request, queryset):
        staff.admin_delete(queryset.values_list("pk", flat=True), actor=Actor.from_request(request))

    def delete_view(self, request, object_id, extra_context=None):
        """A refusal (the last director) is the admin's error message on the login's page, and
        nothing of the deletion stays: its own transaction (and the admin's log line) rolled back."""
        try:
            return super().delete_view(request, object_id, extra_context)
        except DomainError as exc:
            self.message_user(request, str(exc.message), messages.ERROR)
            return HttpResponseRedirect(reverse("admin:auth_user_change", args=[object_id], current_app=self.admin_site.name))

    @admin.action(permissions=["delete"], description=django_delete_selected.short_description)
    def delete_selected(self, request, queryset):
        """Django's own action, in one transaction (Django's runs its log lines and the deletion
        each on its own), its refusal an error message on the list with nothing deleted."""
        try:
            with transaction.atomic():
                return django_delete_selected(self, request, queryset)
        except DomainError as exc:
            self.message_user(request, str(exc.message), messages.ERROR)
            return None
