"""Report tables, figures and documents computed from run stores."""
