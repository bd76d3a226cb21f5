"""The API tokens page (`/profile/tokens/`): make a token (shown once), revoke one, and mark
the account as a bot. Thin: forms read the input, botapi.services write."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from botapi import selectors, services
from botapi.errors import ApiError
from botapi.forms import BotForm, TokenForm
from config import inputs


def _page(request: HttpRequest, form: TokenForm, *, new_token: str = "", status: int = 200):
    account = selectors.bot_account_of(user=request.user)
    bot_form = BotForm(
        initial={
            "is_bot": account is not None,
            "joins_rated_pools": account is not None and account.joins_rated_pools,
        }
    )
    context = {
        "form": form,
        "bot_form": bot_form,
        "tokens": selectors.tokens_of(user=request.user),
        "new_token": new_token,
    }
    return render(request, "botapi/tokens.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            _token, text = services.token_create(
                user=request.user,
                name=form.cleaned_data["name"],
                scopes=form.cleaned_data["scopes"],
            )
        except ApiError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            response = _page(request, TokenForm(), new_token=text)
            response["Cache-Control"] = "no-store"  # the token is on this page, once
            return response
    return _page(request, form, status=400 if form.errors else 200)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = services.token_revoke(user=request.user, token_id=token_id)
    except ApiError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"The token “{token.name}” was revoked.")
    return redirect("botapi_tokens")


@login_required
@require_POST
def bot(request: HttpRequest) -> HttpResponse:
    is_bot = inputs.flag(request.POST.get("is_bot"))
    joins = inputs.flag(request.POST.get("joins_rated_pools"))
    services.bot_set(user=request.user, is_bot=is_bot, joins_rated_pools=joins)
    messages.success(
        request, "This account is marked as a bot." if is_bot else "This account is not a bot."
    )
    return redirect("botapi_tokens")
