"""Server-rendered pages, one module per page family; each module lists its own urlpatterns."""
