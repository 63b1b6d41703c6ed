"""The episode runtime: toolbox view, call validation, hazard layer and trace."""
