"""The 3D renderer of training dice behind tools/render_dice.py, by job: solids, face textures,
floors and lights, camera and rasteriser, the scene of one photo."""
