export default { displayName: '@workcell/config', preset: '../../jest.preset.js' };
