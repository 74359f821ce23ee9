"""API token authentication that reads the user's roles in the same query as the token and the
user, so that a call's role check (``tdmanager.roles.user_roles``) asks the database nothing more."""

from django.contrib.auth.models import Group
from django.db.models import Aggregate, CharField, OuterRef, Subquery
from rest_framework.authentication import TokenAuthentication

from .policy import DIRECTOR
from .roles import ROLES


class _Names(Aggregate):
    """The names, comma separated (the role names are fixed words without commas)."""

    function = "STRING_AGG"
    template = "%(function)s(%(expressions)s, ',')"
    output_field = CharField()

    def as_sqlite(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, function="GROUP_CONCAT", **extra_context)


class TokenWithRoles(TokenAuthentication):
    """DRF's token authentication (``Authorization: Token …``), the roles read along."""

    def authenticate_credentials(self, key):
        model = self.get_model()
        roles = Group.objects.filter(user=OuterRef("user_id"), name__in=ROLES).values("user").annotate(names=_Names("name")).values("names")
        token = model.objects.select_related("user").annotate(tdm_role_names=Subquery(roles)).filter(key=key).first()
        if token is None or not token.user.is_active:
            return super().authenticate_credentials(key)  # DRF's own refusal, in the user's language
        held = set(filter(None, (token.tdm_role_names or "").split(",")))
        if token.user.is_superuser:
            held.add(DIRECTOR)
        token.user._tdm_roles = held  # what tdmanager.roles.user_roles keeps for the request
        return token.user, token
