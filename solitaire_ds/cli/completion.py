"""``solitaire-ds completion bash|zsh``: a shell completion script, written from the parser itself.

The script completes the commands, each command's options, and the game names after
``play``/``simulate``; it is generated from the same parser ``--help`` is, so it cannot
drift from the options. Load it with ``eval "$(solitaire-ds completion bash)"`` (in
``~/.bashrc``), or ``source <(solitaire-ds completion zsh)`` in zsh (which runs the bash
script through ``bashcompinit``).
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["register", "script"]

_SHELLS = ("bash", "zsh")


def _commands(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    """Each command (``exercises init`` counts as one) and its option strings."""
    found: dict[str, list[str]] = {}

    def walk(p: argparse.ArgumentParser, prefix: str) -> None:
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found[f"{prefix}{name}".strip()] = sorted(
                        option for a in sub._actions for option in a.option_strings if option.startswith("--"))
                    walk(sub, f"{prefix}{name} ")

    walk(parser, "")
    return found


def script(parser: argparse.ArgumentParser, shell: str = "bash") -> str:
    """Return the completion script for ``shell`` (``bash`` or ``zsh``)."""
    from solitaire_ds.games import GAMES

    commands = _commands(parser)
    top = sorted({name.split()[0] for name in commands})
    cases = "\n".join(f'        "{name}") opts="{" ".join(options)}" ;;' for name, options in sorted(commands.items()))
    nested = {name: sorted(n.split()[1] for n in commands if n.startswith(name + " ")) for name in top}
    subs = "\n".join(f'        "{name}") subs="{" ".join(words)}" ;;' for name, words in nested.items() if words)
    body = f'''_solitaire_ds() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" first="${{COMP_WORDS[1]}}" second="${{COMP_WORDS[2]}}"
    local command="$first" opts="" subs=""
    case "$first" in
{subs}
    esac
    if [ -n "$subs" ] && [ "$COMP_CWORD" -ge 3 ]; then command="$first $second"; fi
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=( $(compgen -W "{" ".join(top)} --help --version" -- "$cur") ); return
    fi
    if [ -n "$subs" ] && [ "$COMP_CWORD" -eq 2 ]; then
        COMPREPLY=( $(compgen -W "$subs" -- "$cur") ); return
    fi
    case "$command" in
{cases}
    esac
    if [[ "$cur" != -* ]] && {{ [ "$first" = play ] || [ "$first" = simulate ]; }} && [ "$COMP_CWORD" -eq 2 ]; then
        COMPREPLY=( $(compgen -W "{" ".join(sorted(GAMES))}" -- "$cur") ); return
    fi
    COMPREPLY=( $(compgen -W "$opts --help" -- "$cur") $(compgen -f -- "$cur") )
}}
complete -F _solitaire_ds solitaire-ds
'''
    if shell == "zsh":
        return "autoload -U +X bashcompinit && bashcompinit\n" + body
    return body


def register(subparsers: Any, root: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "completion", help="print a shell completion script (bash or zsh)",
        description='Print a completion script for the shell. In ~/.bashrc: eval "$(solitaire-ds completion '
                    'bash)"; in ~/.zshrc: source <(solitaire-ds completion zsh).')
    parser.add_argument("shell", choices=_SHELLS, help="the shell: bash or zsh")

    def handler(args: argparse.Namespace) -> int:
        print(script(root, args.shell), end="")
        return 0

    parser.set_defaults(handler=handler)
