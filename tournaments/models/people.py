"""People: the venue's players, shared by every tournament."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.people.rules import fold, masked_document, national

from .common import shown_name


class Person(models.Model):
    """A player in the venue's people database (shared by every tournament)."""

    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    nickname = models.CharField(_("nickname"), max_length=80, blank=True)
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    document_id = models.CharField(_("identity document"), max_length=60, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    # When the player signed the room's privacy notice (the consent to keep his data), as the
    # room recorded it; brought in with the people from the room's former records.
    privacy_consent = models.DateField(_("privacy consent given on"), null=True, blank=True)
    banned = models.BooleanField(_("banned"), default=False)
    banned_reason = models.CharField(_("ban reason"), max_length=200, blank=True)
    # The player asked not to be found by name on the public seat lookup (its answer and the
    # finishing places it shows); the desk, the floor and his own phone page still show him.
    hide_from_lookup = models.BooleanField(_("hidden from the public seat lookup"), default=False)
    # Folded "first last nickname phone e-mail" for one-index search by any part, the phone as its
    # national number (no "39" of +39 for every Italian phone). Not the document number: it is
    # found only whole (``services.people.search_people``), never by a part.
    search_text = models.CharField(max_length=400, db_index=True, editable=False, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["last_name", "first_name", "id"]
        # The few banned people, by key (REG-05): "which entries of this field belong to a
        # banned person" reads this, not every person of the field.
        indexes = [models.Index(fields=["id"], condition=models.Q(banned=True), name="person_banned_idx")]

    def __str__(self):
        return self.full_name

    def save(self, *args, **kwargs):
        self.fold_search_text()
        super().save(*args, **kwargs)

    def fold_search_text(self) -> None:
        self.search_text = " ".join(  # folded as the search folds what is typed: no case, no accents
            fold(p) for p in (self.first_name, self.last_name, self.nickname, national(self.phone), self.email) if p
        )

    @property
    def stored_name(self):
        """The name as stored: an erased person's is the pseudonym "Erased player #<id>" in any language."""
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def full_name(self):
        """The name as the reader reads it: an erased person's pseudonym in the active language."""
        return shown_name(self.stored_name)

    @property
    def display_name(self):
        return f"{self.full_name} ({self.nickname})" if self.nickname else self.full_name

    @property
    def document_masked(self) -> str:
        """The document number as pages and lists show it (``people_search.masked_document``)."""
        return masked_document(self.document_id)
