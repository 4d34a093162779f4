"""Renderers shared by both faces: terminal, markdown, html, junit, badge; json is the model."""
