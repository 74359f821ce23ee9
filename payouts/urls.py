"""Pages of the payouts app (included at the site root)."""

urlpatterns = []
