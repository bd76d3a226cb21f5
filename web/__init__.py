"""The site's top: every app wired together. The URLs (urls.py), the sockets' routes
(routing.py), the ASGI and WSGI applications (asgi.py, wsgi.py) and the pages of no one
app (views.py: the home page). It imports the apps; no app imports it (import-linter's
"app-floors": web is the top floor). Settings and the infrastructure every app stands on
are `config`."""
