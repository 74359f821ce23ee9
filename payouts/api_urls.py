"""API routes of the payouts app (included under /api/v1/)."""

urlpatterns = []
