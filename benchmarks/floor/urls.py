from django.urls import path

from floor import views

urlpatterns = [
    path("healthz", views.health),
    path("submit/<uuid:attempt_id>/<str:deal_code>", views.submit),
    path("page/<str:name>", views.page),
]
