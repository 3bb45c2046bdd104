# bash completion for hbtab. Options and their values come from "hbtab __complete", which
# reads the same option tables that parse the command line.
_hbtab()
{
    local cur prev cmd i w lines line arg choices
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
    local hb=${COMP_WORDS[0]}

    # The command is the first word that is not an option or an option's value.
    cmd=
    local globals
    globals=$("$hb" __complete help 2>/dev/null)
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        case $w in
        -*)
            if printf '%s\n' "$globals" | grep -Eq "^$w	[^	]|^--[^	]*	[^	]+	[^	]*	$w\$"; then
                ((i++))
            fi
            ;;
        *) cmd=$w; break ;;
        esac
    done

    if [ -z "$cmd" ] && [[ $cur != -* ]]; then
        lines=$("$hb" __complete 2>/dev/null)
    fi
    lines=${lines:-}
    local all
    all=$("$hb" __complete "${cmd:-help}" 2>/dev/null)

    # A value for the previous option?
    if [[ $prev == -* ]]; then
        line=$(printf '%s\n' "$all" | grep -m1 -E "^$prev	|	$prev\$")
        if [ -n "$line" ]; then
            arg=$(printf '%s' "$line" | cut -f2)
            choices=$(printf '%s' "$line" | cut -f3)
            if [ -n "$arg" ]; then
                if [ -n "$choices" ]; then
                    COMPREPLY=($(compgen -W "$choices" -- "$cur"))
                else
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
                return 0
            fi
        fi
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(printf '%s\n' "$all" | cut -f1)" -- "$cur"))
        return 0
    fi
    if [ -z "$cmd" ]; then
        COMPREPLY=($(compgen -W "$lines" -- "$cur"))
    fi
    return 0
}
complete -F _hbtab hbtab
