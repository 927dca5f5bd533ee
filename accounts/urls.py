"""The accounts' pages: allauth's views under the site's own URL names (which
the templates use), allauth's own patterns for the rest (e-mail addresses,
second factors), and redirects from where pages used to be."""

from allauth.account import views as allauth_views
from django.urls import include, path
from django.views.generic import RedirectView

from . import views

urlpatterns = [
    path("signup/", allauth_views.signup, name="signup"),
    path("login/", allauth_views.login, name="login"),
    path("logout/", views.logout, name="logout"),
    path("profile/", views.profile, name="profile"),
    path("tokens/", views.api_tokens, name="api_tokens"),
    path("tokens/<int:token_id>/revoke/", views.revoke_api_token, name="revoke_api_token"),
    path("password/change/", views.password_change, name="password_change"),
    path("password/change/done/", views.password_change_done, name="password_change_done"),
    path("password/reset/", allauth_views.password_reset, name="password_reset"),
    path("password/reset/done/", allauth_views.password_reset_done, name="password_reset_done"),
    path("password/reset/key/done/", allauth_views.password_reset_from_key_done, name="password_reset_complete"),
    # Where "check your e-mail" used to be.
    path("password/reset/sent/", RedirectView.as_view(pattern_name="password_reset_done", permanent=True)),
    path("", include("allauth.urls")),
    # Links in reset e-mails sent before allauth; after allauth's patterns, so
    # its password/reset/key/... is never taken for a uid and a token.
    path("password/reset/<uidb64>/<token>/", views.legacy_password_reset_link, name="password_reset_confirm"),
]
