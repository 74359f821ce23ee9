"""The two login doors, behind the throttle of ``tdmanager.security``: the login page and the
API token endpoint. Locked out: the page says so with status 429; the API answers 429
``{"code": "throttled", "detail"}`` with ``Retry-After``. And the way out: a logout tells the
browser to forget what it kept of the login (``tdmanager.sitedata``)."""

import math

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.utils.translation import ngettext
from rest_framework import exceptions
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.views import APIView

from .jsonbody import BoundedJSONParser
from .security import no_store, remember_device, throttled_seconds
from .sitedata import forget_this_browser


def throttled_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed logins. Try again in %(minutes)d minute.",
        "Too many failed logins. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


class ThrottledAuthenticationForm(AuthenticationForm):
    def clean(self):
        try:
            return super().clean()
        except ValidationError:
            wait = throttled_seconds(self.request) if self.request is not None else None
            if wait:
                raise ValidationError(throttled_message(wait), code="throttled")
            raise


class LoginView(auth_views.LoginView):
    authentication_form = ThrottledAuthenticationForm

    def get_context_data(self, **kwargs):
        return super().get_context_data(idle_minutes=settings.TDM_SESSION_IDLE_MINUTES, **kwargs)

    def form_valid(self, form):
        response = super().form_valid(form)
        remember_device(self.request, response, form.get_user().get_username())  # tdmanager.security: a known device
        return response

    def form_invalid(self, form):
        wait = throttled_seconds(self.request)
        if wait:
            response = self.render_to_response(self.get_context_data(form=form, throttled=throttled_message(wait)), status=429)
            response["Retry-After"] = str(wait)
            return response
        return super().form_invalid(form)


class LogoutView(auth_views.LogoutView):
    """Django's logout, from whatever page: the browser also drops the floor's kept pages, API
    reads and queue (``Clear-Site-Data``), not only when the logout was tapped on a floor page."""

    def post(self, request, *args, **kwargs):
        return forget_this_browser(super().post(request, *args, **kwargs))


class TokenLoginView(APIView):
    """``POST {"username", "password", "device"}`` → a token for this device; a wrong password or
    unknown user gets the same 400, a locked-out one 429. The app that owns the tokens' table
    issues them (``issue``): the ground floor only checks the password, behind the throttle."""

    permission_classes = ()
    authentication_classes = ()
    parser_classes = (BoundedJSONParser, FormParser, MultiPartParser)  # DRF's, with the JSON depth bounded
    serializer_class = AuthTokenSerializer

    def issue(self, request, user):
        """The answer to a checked login: a token for this device (the subclass's)."""
        raise NotImplementedError

    def post(self, request, *args, **kwargs):
        serializer = self.serializer_class(data=request.data, context={"request": request})
        try:
            serializer.is_valid(raise_exception=True)
        except exceptions.ValidationError:
            wait = throttled_seconds(request)
            if wait:
                exc = exceptions.Throttled(detail=throttled_message(wait))
                exc.wait = wait
                raise exc
            raise
        user = serializer.validated_data["user"]
        response = self.issue(request, user)
        remember_device(request, response, user.get_username())  # a browser calling the API keeps it too
        return no_store(response)  # the device's token: no cache keeps it
