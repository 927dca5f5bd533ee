from django.urls import path

from . import views

urlpatterns = [
    path("players/<str:username>/", views.player, name="player"),
    path("players/<str:username>/<slug:change>/", views.change_relation, name="player_relation"),
    path("leaderboard/", views.leaderboard_home, name="leaderboard_home"),
    path("leaderboard/<slug:rules>/", views.leaderboard, name="leaderboard"),
    path("ratings/", views.how_ratings_work, name="how_ratings_work"),
]
