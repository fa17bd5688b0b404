"""One small module per resource; each handler finds its service and delegates."""
