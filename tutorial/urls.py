from django.urls import path

from . import views

urlpatterns = [
    path("tutorial/", views.index, name="tutorial"),
    path("tutorial/practice/", views.practice, name="tutorial_practice"),
    path("tutorial/<slug:game>/<int:number>/", views.step_page, name="tutorial_step"),
    path("tutorial/<slug:game>/<int:number>/move", views.move, name="tutorial_move"),
]
