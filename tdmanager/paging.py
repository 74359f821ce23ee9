"""Pages of a long list: a season makes the people, the tournaments, the sales, the logins and
the event log long, and a page shows them fifty at a time with how many there are and a pager
(``templates/_pager.html``), so the last one added is always reachable. ``?page=`` is read as
Django's paginator reads it: a page past the last shows the last, anything but a number the first.
"""

from urllib.parse import urlencode

from django.core.paginator import Paginator

PER_PAGE = 50


class Paged:
    """One page of a list: ``rows``, ``count`` (the whole list's), ``first`` and ``last`` (the
    rows' places, from 1), and the links to the other pages keeping the page's other parameters."""

    def __init__(self, request, rows, *, per_page: int = PER_PAGE, param: str = "page", anchor: str = ""):
        self.page = Paginator(rows, per_page).get_page(request.GET.get(param))
        self.rows = list(self.page.object_list)
        self.count = self.page.paginator.count
        self.first = self.page.start_index()
        self.last = self.page.end_index()
        self.number, self.pages = self.page.number, self.page.paginator.num_pages
        kept = [(k, v) for k, v in request.GET.items() if k != param]
        fragment = "#" + anchor if anchor else ""  # a list lower on its page: the link lands on it
        self._link = lambda n: "?" + urlencode([*kept, (param, n)]) + fragment

    def __iter__(self):
        return iter(self.rows)

    @property
    def previous_url(self) -> str | None:
        return self._link(self.number - 1) if self.page.has_previous() else None

    @property
    def next_url(self) -> str | None:
        return self._link(self.number + 1) if self.page.has_next() else None

    @property
    def first_url(self) -> str | None:
        return self._link(1) if self.number > 2 else None

    @property
    def last_url(self) -> str | None:
        return self._link(self.pages) if self.number < self.pages - 1 else None
