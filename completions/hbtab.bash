# bash completion for hbtab. Options, their values and subcommands come from
# "hbtab __complete", which reads the same option tables that parse the command line:
# one line per option, "--name<TAB>ARG<TAB>choices<TAB>-x<TAB>*", then the words the
# command's first argument can be.

# _hbtab_line OPT: sets _hbtab_f to the fields of the line in _hbtab_all for option OPT
# ("--name" or "-x"); returns 1 when there is none.
_hbtab_line()
{
    local line
    while IFS= read -r line; do
        [[ $line == -* ]] || continue
        # Tabs are whitespace to read: an unused field would vanish. Split on \x1f instead.
        line=${line//$'\t'/$'\x1f'}
        IFS=$'\x1f' read -r -a _hbtab_f <<<"$line"
        if [[ ${_hbtab_f[0]} == "$1" || (-n $1 && ${_hbtab_f[3]:-} == "$1") ]]; then
            return 0
        fi
    done <<<"$_hbtab_all"
    return 1
}

# _hbtab_takes_value WORD: whether option word WORD ("--rest", "-o", "-qo") takes the next word.
_hbtab_takes_value()
{
    local w=$1
    case $w in
    --*=* | --) return 1 ;;
    --*) ;;
    -?*) w=-${w: -1} ;;
    *) return 1 ;;
    esac
    _hbtab_line "$w" && [ -n "${_hbtab_f[1]:-}" ]
}

# _hbtab_values OPT CUR: the values option OPT takes that start with CUR.
_hbtab_values()
{
    _hbtab_line "$1" || return 0
    if [ -n "${_hbtab_f[2]:-}" ]; then
        COMPREPLY=($(compgen -W "${_hbtab_f[2]}" -- "$2"))
    elif [ "${_hbtab_f[1]:-}" = FILE ] || [ "${_hbtab_f[1]:-}" = PATH ]; then
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$2"))
    fi
}

# Sets _hbtab_words and _hbtab_cword from COMP_WORDS with the pieces readline split at '='
# or ':' (COMP_WORDBREAKS) joined again: "--via=thrift2", "http://host:8080" are one word.
_hbtab_words()
{
    local pos=0 j=-1 wi w gap
    _hbtab_words=()
    for ((wi = 0; wi <= COMP_CWORD; wi++)); do
        w=${COMP_WORDS[wi]}
        gap=0
        while [[ ${COMP_LINE:pos:1} == [[:space:]] ]]; do
            ((pos++))
            gap=1
        done
        if ((wi > 0 && !gap && j >= 0)); then
            _hbtab_words[j]+=$w
        else
            _hbtab_words[++j]=$w
        fi
        ((pos += ${#w}))
    done
    _hbtab_cword=$j
}

_hbtab()
{
    local cur prev hb cmd i w nargs=0 _hbtab_all _hbtab_cword
    local -a _hbtab_f _hbtab_words
    COMPREPLY=()
    _hbtab_words
    cur=${_hbtab_words[_hbtab_cword]}
    prev=
    [ "$_hbtab_cword" -gt 0 ] && prev=${_hbtab_words[_hbtab_cword - 1]}
    hb=${COMP_WORDS[0]}

    # The command is the first word that is neither an option nor an option's value; the
    # options it knows include the global ones.
    _hbtab_all=$("$hb" __complete help 2>/dev/null)
    cmd=
    for ((i = 1; i < _hbtab_cword; i++)); do
        w=${_hbtab_words[i]}
        if [[ $w == -* ]]; then
            _hbtab_takes_value "$w" && ((i++))
        elif [ -z "$cmd" ]; then
            cmd=$w
            _hbtab_all=$("$hb" __complete "$cmd" 2>/dev/null)
        else
            ((nargs++))
        fi
    done

    # The value of an option: "--via VALUE", "-o VALUE", "--via=VALUE" (readline completes the
    # part after '=').
    if [[ $cur == --*=* ]]; then
        _hbtab_values "${cur%%=*}" "${cur#*=}"
        return 0
    fi
    if [[ $prev == -* ]] && _hbtab_takes_value "$prev"; then
        [[ $prev == --* ]] || prev=-${prev: -1}
        _hbtab_values "$prev" "$cur"
        return 0
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(printf '%s\n' "$_hbtab_all" | grep '^-' | cut -f1)" -- "$cur"))
        return 0
    fi
    local first
    first=$(printf '%s\n' "$_hbtab_all" | grep -v '^-')
    if [ -z "$cmd" ]; then
        COMPREPLY=($(compgen -W "$("$hb" __complete 2>/dev/null)" -- "$cur"))
    elif [ "$nargs" -eq 0 ] && [ -n "$first" ]; then
        # meta's subcommands, help's commands
        COMPREPLY=($(compgen -W "$first" -- "$cur"))
    else
        # an existing table's name, asked of the gateway (only with --rest or a profile)
        COMPREPLY=($(compgen -W "$("$hb" __complete-table -- "${_hbtab_words[@]:1:_hbtab_cword-1}" 2>/dev/null)" -- "$cur"))
    fi
    return 0
}
complete -F _hbtab hbtab
