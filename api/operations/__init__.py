"""The API's operations, one router per part of the site: each calls the site's own view and answers what it answers."""
