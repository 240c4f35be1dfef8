"""The search: the kernel every strategy shares, the strategy families (one
module each, with a Prolog twin of the same name in prolog/), the registry
that lists them, and the Python engine that runs them."""
