"""Developer tools: not part of the product (the image ships none of them)."""
