"""Reading a model's answer: its sections, and the two parts of a summary, whatever headings it chose."""
