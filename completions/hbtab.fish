# fish completion for hbtab, driven by "hbtab __complete" (the option tables themselves).
function __hbtab_command
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    set -l globals (hbtab __complete help 2>/dev/null)
    for w in $words
        if test $skip -eq 1
            set skip 0
            continue
        end
        if string match -q -- '-*' $w
            if string match -q -r -- "^$w\t[^\t]|\t$w\$" $globals
                set skip 1
            end
            continue
        end
        echo $w
        return 0
    end
    return 1
end

function __hbtab_options
    set -l cmd (__hbtab_command)
    test -n "$cmd"; or set cmd help
    for line in (hbtab __complete $cmd 2>/dev/null)
        set -l f (string split \t -- $line)
        printf '%s\t%s\n' $f[1] $f[2]
    end
end

function __hbtab_values
    set -l prev (commandline -opc)[-1]
    set -l cmd (__hbtab_command)
    test -n "$cmd"; or set cmd help
    for line in (hbtab __complete $cmd 2>/dev/null)
        set -l f (string split \t -- $line)
        if test "$f[1]" = "$prev"; and test -n "$f[3]"
            string split ' ' -- $f[3]
        end
    end
end

complete -c hbtab -f
complete -c hbtab -n 'not __hbtab_command' -a '(hbtab __complete 2>/dev/null)'
complete -c hbtab -n 'string match -q -- "-*" (commandline -ct)' -a '(__hbtab_options)'
complete -c hbtab -a '(__hbtab_values)'
