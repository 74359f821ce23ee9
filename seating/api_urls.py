"""API routes of the seating app (included under /api/v1/)."""

urlpatterns = []
