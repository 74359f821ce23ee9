"""Pages of the seating app (included at the site root)."""

urlpatterns = []
