"""What every desk's API shares: the validated body, a sale's answer."""

from rest_framework import status
from rest_framework.response import Response

from tdmanager.api import body_object
from tournaments.cashier.serializers import LedgerRowSerializer
from tournaments.setup.serializers import EntrySerializer


def validated_body(serializer_class, request, **kw):
    """The body, validated by ``serializer_class`` (a list or a string where an object is expected: 400)."""
    ser = serializer_class(data=body_object(request), **kw)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


def sale_response(sale, code=status.HTTP_201_CREATED):
    """A sale's answer, read at the desk (cashier, director): the receipt carries the player's phone page."""
    receipt = LedgerRowSerializer(sale.row, context={"at_desk": True}).data if sale.row else None
    data = {"entry": EntrySerializer(sale.entry).data, "receipt": receipt}
    return Response(data, status=code)
