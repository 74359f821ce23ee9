"""API routes of the formats app (included under /api/v1/)."""

urlpatterns = []
