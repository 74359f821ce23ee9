"""API token authentication that reads the user's roles in the same query as the token and the
user, so that a call's role check (``tdmanager.roles.user_roles``) asks the database nothing more."""

from django.contrib.auth.models import Group
from django.db import connections, router
from django.db.models import Aggregate, CharField, OuterRef, Subquery
from django.db.models.query import get_related_populators
from rest_framework.authentication import TokenAuthentication

from .compiled import converted, prepared_cursor
from .policy import DIRECTOR
from .roles import ROLES


class _Names(Aggregate):
    """The names, comma separated (the role names are fixed words without commas)."""

    function = "STRING_AGG"
    template = "%(function)s(%(expressions)s, ',')"
    output_field = CharField()

    def as_sqlite(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, function="GROUP_CONCAT", **extra_context)


_KEY = "tdm-token-key-placeholder"  # where the key goes among the compiled query's parameters


class _Lookup:
    """The token query compiled once per database connection object (building and compiling it
    cost every API call more CPU than running it): its SQL and parameters, and how a row becomes
    the token with its user, as Django's ``ModelIterable`` makes them (converters applied)."""

    def __init__(self, queryset, connection):
        compiler = queryset.query.get_compiler(connection=connection)
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.key_at = self.params.index(_KEY)
        select, klass_info = compiler.select, compiler.klass_info
        self.converters = list(compiler.get_converters([s[0] for s in select]).items())
        fields = klass_info["select_fields"]
        self.token_slice = slice(fields[0], fields[-1] + 1)
        self.token_init = [f[0].target.attname for f in select[self.token_slice]]
        self.populators = get_related_populators(klass_info, select, connection.alias)
        self.annotations = list(compiler.annotation_col_map.items())
        self.model = klass_info["model"]

    def first(self, connection, key):
        params = list(self.params)
        params[self.key_at] = key
        with prepared_cursor(connection) as cursor:
            cursor.execute(self.sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        row = converted(row, self.converters, connection)
        token = self.model.from_db(connection.alias, self.token_init, row[self.token_slice])
        for populator in self.populators:
            populator.populate(row, token)
        for name, pos in self.annotations:
            setattr(token, name, row[pos])
        return token


class TokenWithRoles(TokenAuthentication):
    """DRF's token authentication (``Authorization: Token …``), the roles read along."""

    def query(self, key):
        roles = Group.objects.filter(user=OuterRef("user_id"), name__in=ROLES).values("user").annotate(names=_Names("name")).values("names")
        return self.get_model().objects.select_related("user").annotate(tdm_role_names=Subquery(roles)).filter(key=key)

    def authenticate_credentials(self, key):
        model = self.get_model()
        connection = connections[router.db_for_read(model)]
        lookup = getattr(connection, "_tdm_token_lookup", None)
        if lookup is None or lookup.model is not model:
            lookup = connection._tdm_token_lookup = _Lookup(self.query(_KEY), connection)
        token = lookup.first(connection, key)
        if token is None or not token.user.is_active:
            return super().authenticate_credentials(key)  # DRF's own refusal, in the user's language
        held = set(filter(None, (token.tdm_role_names or "").split(",")))
        if token.user.is_superuser:
            held.add(DIRECTOR)
        token.user._tdm_roles = held  # what tdmanager.roles.user_roles keeps for the request
        return token.user, token
