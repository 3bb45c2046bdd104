# fish completion for hbtab, driven by "hbtab __complete" (the option tables themselves): one
# line per option, "--name<TAB>ARG<TAB>choices<TAB>-x<TAB>*", then the words the command's
# first argument can be (meta's subcommands, help's commands).

# The hbtab on the command line when it names one by path, else the one on PATH.
function __hbtab_bin
    set -l w (commandline -opc)[1]
    if string match -q -- '*/*' $w; and test -x "$w"
        echo $w
    else
        echo hbtab
    end
end

# __hbtab_option WORD LINES...: the line of the option WORD ("--via", "-o", "-qo": its last
# letter) when it takes a value; nothing for a flag or an unknown option.
function __hbtab_option
    set -l w $argv[1]
    if not string match -q -- '--*' $w
        set w -(string sub -s -1 -- $w)
    end
    for line in $argv[2..-1]
        set -l f (string split \t -- $line)
        if test "$f[1]" = "$w"; or test (count $f) -ge 4 -a "$f[4]" = "$w"
            test -n "$f[2]"; and echo $line
            return
        end
    end
end

# __hbtab_values LINE PREFIX CUR: the values of the option on LINE that start with CUR, each
# after PREFIX ("--via=" when the value is in the same word).
function __hbtab_values
    set -l f (string split \t -- $argv[1])
    if test -n "$f[3]"
        for c in (string split ' ' -- $f[3])
            echo $argv[2]$c
        end
    else if test "$f[2]" = FILE; or test "$f[2]" = PATH
        for p in (__fish_complete_path $argv[3])
            echo $argv[2]$p
        end
    end
end

function __hbtab_complete
    set -l bin (__hbtab_bin)
    set -l words (commandline -opc)
    set -e words[1]
    set -l cur (commandline -ct)
    # The command is the first word that is neither an option nor an option's value; the
    # options it knows include the global ones.
    set -l lines ($bin __complete help 2>/dev/null)
    set -l cmd
    set -l nargs 0
    set -l want
    for w in $words
        if test -n "$want"
            set want
        else if string match -q -- '-?*' $w
            string match -q -- '--*=*' $w; or set want (__hbtab_option $w $lines)
        else if test -z "$cmd"
            set cmd $w
            set lines ($bin __complete $cmd 2>/dev/null)
        else
            set nargs (math $nargs + 1)
        end
    end

    if string match -q -- '--*=*' $cur
        set -l opt (string split -m 1 = -- $cur)
        set -l line (__hbtab_option $opt[1] $lines)
        test -n "$line"; and __hbtab_values $line $opt[1]= $opt[2]
        return
    end
    if test -n "$want"
        __hbtab_values $want '' $cur
        return
    end
    if string match -q -- '-*' $cur
        for line in $lines
            set -l f (string split \t -- $line)
            string match -q -- '-*' $f[1]; or continue
            printf '%s\t%s\n' $f[1] $f[2]
            test -n "$f[4]"; and printf '%s\t%s\n' $f[4] $f[2]
        end
        return
    end
    set -l first (string match -v -- '-*' $lines)
    if test -z "$cmd"
        $bin __complete 2>/dev/null
    else if test $nargs -eq 0; and test (count $first) -gt 0
        # meta's subcommands, help's commands
        printf '%s\n' $first
    else
        # an existing table's name, asked of the gateway (only with --rest or a profile)
        $bin __complete-table -- $words 2>/dev/null
    end
end

complete -c hbtab -f -a '(__hbtab_complete)'
