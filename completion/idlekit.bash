# bash completion for idlekit (installed by `cmake --install` as
# share/bash-completion/completions/idlekit).
#
# Commands come from `idlekit --help`, a command's options from `idlekit CMD --help`, so the
# completion follows the help texts and cannot fall behind them; governor and platform
# values from the built-in lists.

_idlekit_commands() {
	"$1" --help 2>/dev/null | awk '/^Commands:/ { on = 1; next }
		on && /^  [a-z]/ { print $1 }
		on && /^$/ { on = 0 }' | sort -u
}

_idlekit_options() { # IDLEKIT CMD [SUB]
	"$1" $2 ${3:+$3} --help 2>/dev/null | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*' |
		sed 's/^[ ,]//' | sort -u
}

_idlekit() {
	local cur prev bin cmd cmdi sub i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	bin=${COMP_WORDS[0]}
	COMPREPLY=()

	# the command: the first word after idlekit that is not an option
	cmd=""
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; cmdi=$i; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$(_idlekit_commands "$bin") --help --version" -- "$cur"))
		return 0
	fi
	# after '--' comes a command of the user's
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i]}" = -- ]; then
			COMPREPLY=($(compgen -c -- "$cur"))
			return 0
		fi
	done

	case $cmd in
	help)
		COMPREPLY=($(compgen -W "$(_idlekit_commands "$bin")" -- "$cur"))
		return 0
		;;
	platform)
		sub=${COMP_WORDS[cmdi + 1]}
		if [ $((cmdi + 1)) -eq "$COMP_CWORD" ]; then
			COMPREPLY=($(compgen -W "list show import calibrate" -- "$cur"))
			return 0
		fi
		if [ "$sub" = show ] && [[ $cur != -* ]]; then
			COMPREPLY=($(compgen -W "$("$bin" platform list 2>/dev/null | awk '{ print $1 }')" -- "$cur")
				$(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur"))
			return 0
		fi
		[ "$sub" = import ] && cmd="platform import"
		;;
	esac

	case $prev in
	-g | --governor)
		COMPREPLY=($(compgen -W "menu teo ladder haltpoll" -- "$cur"))
		return 0
		;;
	-p | --platform)
		COMPREPLY=($(compgen -W "$("$bin" platform list 2>/dev/null | awk '{ print $1 }') trace" -- "$cur")
			$(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur"))
		return 0
		;;
	-o | --output | --html | --input | --sysfs-dump | --dump)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0
		;;
	--sysfs-root)
		COMPREPLY=($(compgen -d -- "$cur"))
		return 0
		;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_idlekit_options "$bin" $cmd)" -- "$cur"))
		return 0
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
	return 0
}

complete -F _idlekit idlekit
