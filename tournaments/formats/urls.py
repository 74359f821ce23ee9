"""Pages of the formats app (included at the site root)."""

urlpatterns = []
