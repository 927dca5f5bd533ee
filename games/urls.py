from .views import api_docs, lobby, replay, reports, rules, table

urlpatterns = [*lobby.urlpatterns, *table.urlpatterns, *replay.urlpatterns, *api_docs.urlpatterns, *rules.urlpatterns,
               *reports.urlpatterns]
