"""Stand-in for termcolor: the reference's output goes to a pipe, where termcolor adds no colour."""


def colored(text, color=None, on_color=None, attrs=None, **_kwargs):
    return str(text)


def cprint(text, color=None, on_color=None, attrs=None, **kwargs):
    print(colored(text), **kwargs)
