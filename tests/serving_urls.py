"""Test-only routes for tests/test_serving.py, in front of the product's own."""

import threading

from django.http import JsonResponse
from django.urls import path
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from tdmanager.urls import handler400, handler403, handler404, handler500  # noqa: F401
from tdmanager.urls import urlpatterns as product

# Two requests meet here: each waits for the other, so both pass only when they run side by side.
meeting = {"barrier": threading.Barrier(2, timeout=10)}


class Meet(APIView):
    permission_classes = [AllowAny]

    def get(self, request):
        try:
            meeting["barrier"].wait()
            met = True
        except threading.BrokenBarrierError:
            met = False
        return JsonResponse({"met": met, "thread": threading.current_thread().name})


class Echo(APIView):
    """What the view sees of the request (the WSGI environ built from the ASGI scope)."""

    permission_classes = [AllowAny]

    def get(self, request, word):
        return self.post(request, word)

    def post(self, request, word):
        return JsonResponse(
            {
                "path": request.path,
                "query": request.GET.get("q", ""),
                "secure": request.is_secure(),
                "remote": request.META.get("REMOTE_ADDR"),
                "host": request.get_host(),
                "cookie": request.COOKIES.get("a", ""),
                "length": len(request.body),
                "thread": threading.current_thread().name,
            }
        )


urlpatterns = [
    path("test-serving/meet/", Meet.as_view(), name="test-serving-meet"),
    path("test-serving/echo/<str:word>/", Echo.as_view(), name="test-serving-echo"),
    *product,
]
