#!/usr/bin/zsh -f
# Prints what zsh's completion system offers for a command line, one match per line:
#   zsh -f complete.zsh COMPLETIONS_DIR BINARY_DIR 'hbtab create user --'
# An interactive zsh runs in a pseudo-terminal (zpty) with the completion functions of
# COMPLETIONS_DIR; compadd is wrapped to print every match instead of showing a menu.
# Exit status 3: the completion never ran. HBTAB_ZCOMPDUMP names a file for compinit's dump,
# so that calls after the first skip the slow scan of every completion function.
zmodload zsh/zpty || exit 2
local setup=${TMPDIR:-/tmp}/hbtab-complete-$$.zsh line marks=0
trap 'rm -f $setup' EXIT
local dump=-D
[[ -n $HBTAB_ZCOMPDUMP ]] && dump="-d ${(q)HBTAB_ZCOMPDUMP}"
cat >$setup <<SETUP
PROMPT= RPROMPT= PS2=
path=(${(q)2} \$path)
fpath=(${(q)1} \$fpath)
autoload -Uz compinit && compinit -u $dump
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
# a line that is typed is never run
bindkey '^M' undefined-key
bindkey '^J' undefined-key
bindkey '^I' complete-word
hb-mark() { print -r -- HB-COMPLETE-MARK }
compprefuncs=(hb-mark)
comppostfuncs=(hb-mark exit)
SETUP
cat >>$setup <<'SETUP'
compadd() {
	# calls that only collect matches are not offers
	if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
		builtin compadd "$@"
		return
	fi
	local -a hb_hits hb_pre
	local hb_h
	builtin compadd -A hb_hits "$@"
	zparseopts -E -a hb_pre P:
	for hb_h in $hb_hits; do print -r -- "HB-MATCH ${hb_pre[2]}$hb_h"; done
	builtin compadd "$@"
}
print -r -- HB-READY
SETUP
zpty hbz zsh -f -i || exit 2
zpty -w hbz "source ${(q)setup}"
while zpty -r hbz line; do [[ $line == HB-READY* ]] && break; done
zpty -w -n hbz "$3"$'\t'
while zpty -r hbz line; do
	line=${line%$'\n'}
	line=${line%$'\r'}
	if [[ $line == *HB-COMPLETE-MARK* ]]; then
		(( ++marks == 2 )) && break
		continue
	fi
	(( marks == 1 )) && [[ $line == HB-MATCH\ * ]] && print -r -- "${line#HB-MATCH }"
done
zpty -d hbz
(( marks == 2 )) || exit 3
