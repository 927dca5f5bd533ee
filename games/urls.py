from .views import following, lobby, replay, reports, rules, table, websocket_schema

urlpatterns = [*lobby.urlpatterns, *table.urlpatterns, *replay.urlpatterns, *rules.urlpatterns,
               *reports.urlpatterns, *following.urlpatterns, *websocket_schema.urlpatterns]
